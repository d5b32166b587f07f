import type { FindingCategory, SimpleCommand } from '../command-line-analysis.js';

/** What a default rule says of a command it denies: the category and the reason. */
export interface RuleVerdict {
  readonly category: FindingCategory;
  readonly reason: string;
}

/**
 * A default rule on the arguments of one effective command (after wrappers): its verdict, or
 * undefined when the command is not one it denies.
 */
export type ArgumentRule = (args: readonly string[], command: SimpleCommand) => RuleVerdict | undefined;
