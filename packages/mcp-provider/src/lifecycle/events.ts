/** What a provider reports about its server, for logs and the orchestrator. */
export type McpProviderEvent =
  | {
      readonly type: 'server-started';
      readonly server: string;
      readonly transport: string;
      readonly pid?: number;
      readonly restarts: number;
    }
  | { readonly type: 'server-exited'; readonly server: string; readonly reason: string }
  | {
      readonly type: 'server-restarting';
      readonly server: string;
      readonly attempt: number;
      readonly delayMs: number;
    }
  | { readonly type: 'server-failed'; readonly server: string; readonly reason: string }
  | {
      readonly type: 'server-stopped';
      readonly server: string;
      readonly reason: 'idle' | 'closed' | 'restart';
    }
  | { readonly type: 'health-failed'; readonly server: string; readonly reason: string }
  | { readonly type: 'session-expired'; readonly server: string }
  | {
      readonly type: 'schema-invalid';
      readonly server: string;
      readonly tool: string;
      readonly message: string;
    }
  | {
      readonly type: 'protocol-error';
      readonly server: string;
      readonly message: string;
      /**
       * Present on a summary of errors held back in a burst (see `ProtocolErrorReports`): how
       * many it stands for; `message` then quotes the last of them.
       */
      readonly count?: number;
    }
  | { readonly type: 'tools-changed'; readonly server: string; readonly count: number }
  | { readonly type: 'definition-changed'; readonly server: string; readonly tool: string }
  | {
      /** An elicitation was answered; `fields` names what was sent, never its values. */
      readonly type: 'elicitation-answered';
      readonly server: string;
      readonly mode: 'form' | 'url';
      readonly action: 'accept' | 'decline' | 'cancel' | 'invalid';
      readonly fields: readonly string[];
      /** For `invalid`: what broke the requested schema (`field: what`, no values). */
      readonly problems?: readonly string[];
    }
  | {
      readonly type: 'sampling-answered';
      readonly server: string;
      readonly model: string;
      /** Tokens counted against the budget. */
      readonly tokens: number;
    };

/** Receives provider events. */
export type McpEventListener = (event: McpProviderEvent) => void;
