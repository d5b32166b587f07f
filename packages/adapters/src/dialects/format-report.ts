import type { CompatReport } from './types.js';

/**
 * The compatibility report as text for a terminal or a README: one line per tool with its
 * status, then one indented line per change (`--compat` in the CLI).
 *
 * @example
 * console.log(formatCompatReport(compileTools(tools, 'gemini').report));
 */
export function formatCompatReport(
  report: CompatReport,
  options: { readonly onlyChanged?: boolean } = {},
): string {
  const { counts } = report;
  const lines = [
    `${report.dialect}: ${report.entries.length} tools; exact ${counts.exact}, lossless ${counts.lossless}, relaxed ${counts.relaxed}, degraded ${counts.degraded}, unrepresentable ${counts.unrepresentable}`,
  ];
  for (const entry of report.entries) {
    if (options.onlyChanged && entry.status === 'exact') continue;
    const renamed = entry.dialectName === entry.tool ? '' : ` (as ${entry.dialectName})`;
    lines.push(`${entry.tool}${renamed}: ${entry.status}`);
    for (const issue of entry.issues)
      lines.push(
        `  ${issue.severity.padEnd(15)} ${issue.path === '' ? '(root)' : issue.path} ${issue.message}`,
      );
  }
  return lines.join('\n');
}
