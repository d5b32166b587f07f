import type { ToolSpec } from '@toolplane/core';
import type { CompileOptions } from './compile-tool.js';
import { compileTools } from './compile-tools.js';
import { toDefinition } from './definitions.js';
import { formatCompatReport } from './format-report.js';
import { type CompatReport, DIALECTS, type Dialect } from './types.js';
import { ToolError } from '@toolplane/core';

/** What {@link exportTools} answers. */
export interface ExportedTools {
  /** The definitions in the dialect's own form, ready for `JSON.stringify`. */
  readonly definitions: readonly unknown[];
  readonly report: CompatReport;
  /** The report as text ({@link formatCompatReport}). */
  readonly reportText: string;
}

/**
 * The tool definitions of a list in one dialect, with its compatibility report: what
 * `toolplane tools list --format <dialect> [--compat]` prints. Throws `INVALID_ARGUMENTS` for a
 * format that is not a dialect.
 *
 * @example
 * const { definitions, reportText } = exportTools(orchestrator.listTools(view), 'gemini');
 */
export function exportTools(
  specs: readonly ToolSpec[],
  format: string,
  options: CompileOptions = {},
): ExportedTools {
  if (!(DIALECTS as readonly string[]).includes(format))
    throw new ToolError(
      'INVALID_ARGUMENTS',
      `unknown format ${JSON.stringify(format)}: use one of ${DIALECTS.join(', ')}`,
    );
  const compiled = compileTools(specs, format as Dialect, options);
  return {
    definitions: compiled.tools.map((tool) => toDefinition(tool)),
    report: compiled.report,
    reportText: formatCompatReport(compiled.report),
  };
}
