import type { RiskLevel } from './spec.js';
import type { Principal } from './principal.js';

/** A question for a person: may this call run? */
export interface ApprovalRequest {
  readonly id: string;
  /** Public tool name. */
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly risk: RiskLevel;
  /** Why the call needs approval, in one sentence. */
  readonly reason: string;
  /** The command line, for shell tools. */
  readonly command?: string;
  /** What `allow-always` would add to the allow-list. */
  readonly suggestedRule?: string;
  readonly principal: Principal;
  readonly sessionId: string;
  readonly timeoutMs: number;
}

/** The answer: run once, run and remember, or refuse. */
export type ApprovalDecision = 'allow-once' | 'allow-always' | 'deny';

/** Where approval questions go: a callback, a terminal prompt, an HTTP endpoint. */
export interface ApprovalChannel {
  /** Resolves with the decision; the caller enforces the timeout through `signal`. */
  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision>;
}
