import type { ShellWord } from './words/shell-word.js';

/** One simple command found in a command line, after wrappers were peeled off. */
export interface SimpleCommand {
  /** Normalized command name (`/bin/rm` -> `rm`); empty when it is computed at run time. */
  readonly name: string;
  /** Arguments of the effective command (after wrappers). */
  readonly args: readonly ShellWord[];
  /** Every word as written, wrappers included (`sudo rm -rf x`), names normalized. */
  readonly written: readonly ShellWord[];
  /** Wrappers that were peeled off, outermost first (`sudo`, `xargs`, `bash -c`). */
  readonly via: readonly string[];
  /** Runs with raised privileges (`sudo`, `doas`, `su`). */
  readonly elevated: boolean;
  /** Receives more arguments at run time (`xargs`, `find -exec ... {}`). */
  readonly extraArgs: boolean;
  /** Names of the commands whose output reaches this command's standard input. */
  readonly stdinFrom: readonly string[];
  /** Source text of the command. */
  readonly text: string;
}

/** Categories of the default deny rules (design document 002) and of not-understood constructs. */
export type FindingCategory =
  | 'destructive-file-operation'
  | 'disk-destruction'
  | 'system-control'
  | 'fork-bomb'
  | 'remote-code-execution'
  | 'reverse-shell'
  | 'eval-injection'
  | 'protected-path-write'
  | 'script-written-by-line'
  | 'not-understood';

/**
 * Something the analysis found: a command the default rules deny (`deny`), one that must be
 * asked whatever the mode (`ask`: a protected path written, a script the line wrote with text
 * not known), or a construct it cannot judge (`unknown`).
 */
export interface Finding {
  readonly kind: 'deny' | 'ask' | 'unknown';
  readonly category: FindingCategory;
  /** One sentence for the operator and the model. */
  readonly reason: string;
  /** The source text it is about. */
  readonly text: string;
}

/** Everything static analysis learned about one command line. */
export interface CommandLineAnalysis {
  readonly source: string;
  readonly commands: readonly SimpleCommand[];
  readonly findings: readonly Finding[];
  /** Files written through output redirections (`> path`); `<computed>` when the target is dynamic. */
  readonly writes: readonly string[];
  /** True when nothing was left not understood. */
  readonly understood: boolean;
}
