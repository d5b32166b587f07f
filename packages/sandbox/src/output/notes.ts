/** What a sandbox knows about a command when it looks for the reason the command failed. */
export interface NoteFacts {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly timeoutMs: number | undefined;
  /** The sandbox's limits, as shown to the model. */
  readonly pidsLimit: number | undefined;
  readonly memoryBytes: number | undefined;
  /** True when the sandbox has no network at all. */
  readonly networkNone: boolean;
  /** True when the memory limit killed a process of the command (when the engine tells). */
  readonly oomKilled?: boolean;
  /** Hosts the allow-list proxy refused while the command ran. */
  readonly refusedHosts?: readonly string[];
}

const PREFIX = '[sandbox]';

function mebibytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}

/**
 * One line per reason the sandbox stopped a command, for the model: a command that failed
 * because its sandbox stopped it must not be retried as if the fault were its own.
 */
export function sandboxNotes(facts: NoteFacts): string[] {
  const notes: string[] = [];
  const output = `${facts.stderr}\n${facts.stdout}`;
  if (facts.timedOut) {
    notes.push(
      `${PREFIX} the command ran past its ${facts.timeoutMs ?? 0} ms timeout; the sandbox killed it and every process it started`,
    );
  }
  if (/Read-only file system/i.test(output)) {
    notes.push(
      `${PREFIX} a write hit a read-only path: only /workspace (less its protected paths, such as .git/hooks) and /tmp are writable in the sandbox`,
    );
  }
  if (/Resource temporarily unavailable|can't fork|cannot fork|fork: retry/i.test(output)) {
    notes.push(
      `${PREFIX} the sandbox's process limit${facts.pidsLimit === undefined ? '' : ` (${facts.pidsLimit})`} refused to start more processes`,
    );
  }
  const killed = facts.exitCode === 137 && !facts.timedOut;
  if (facts.oomKilled === true || (killed && facts.memoryBytes !== undefined)) {
    notes.push(
      `${PREFIX} a process was killed (SIGKILL)${facts.memoryBytes === undefined ? '' : `, most likely by the sandbox's ${mebibytes(facts.memoryBytes)} memory limit`}`,
    );
  }
  if (facts.refusedHosts !== undefined && facts.refusedHosts.length > 0) {
    notes.push(
      `${PREFIX} the network allow-list refused ${facts.refusedHosts.join(', ')}: only the configured hosts can be reached`,
    );
  } else if (
    facts.networkNone &&
    /Network is unreachable|bad address|Could not resolve|Temporary failure in name resolution|Name or service not known|getaddrinfo|ENETUNREACH|EAI_AGAIN/i.test(
      output,
    )
  ) {
    notes.push(`${PREFIX} the sandbox has no network: hosts outside it cannot be reached`);
  }
  return notes;
}

/** `stderr` with the notes as its last lines. */
export function appendNotes(stderr: string, notes: readonly string[]): string {
  if (notes.length === 0) return stderr;
  const separator = stderr.length === 0 || stderr.endsWith('\n') ? '' : '\n';
  return `${stderr}${separator}${notes.join('\n')}\n`;
}
