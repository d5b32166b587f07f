/** One finished tool call as the server keeps it, with its place in its operation tree. */
export interface CallRecord {
  readonly tenantId: string;
  readonly callId: string;
  /** The call that made this one (a tool calling a tool), absent for a call from a client. */
  readonly parentId: string | null;
  /** The top-level call this one descends from (its own id for a call from a client). */
  readonly originId: string;
  readonly sessionId: string;
  readonly principalKind: string;
  readonly principalId: string;
  readonly tool: string;
  readonly ok: boolean;
  readonly code: string | null;
  readonly latencyMs: number;
  /** Epoch milliseconds. */
  readonly startedAt: number;
}

/** A call with the calls it made, as `GET /v1/accounting/calls/{id}/tree` answers it. */
export interface CallTreeNode extends Omit<CallRecord, 'tenantId'> {
  readonly children: CallTreeNode[];
}
