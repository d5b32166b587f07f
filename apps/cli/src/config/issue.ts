/** One problem in a config file, with where it is. */
export interface ConfigIssue {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  /** Field path such as `policy.mode` or `mcpServers.github.command`; empty for the whole file. */
  readonly path: string;
  readonly message: string;
}

/** Joins a field path for people: `a.b[0].c`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** Formats an issue as `file:line:column  path  message`. */
export function formatIssue(issue: ConfigIssue, cwd: string): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}:${issue.column ?? 1}`;
  const shown = where.startsWith(`${cwd}/`) ? where.slice(cwd.length + 1) : where;
  return `${shown}  ${issue.path || '(file)'}  ${issue.message}`;
}
