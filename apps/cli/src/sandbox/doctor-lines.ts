import type { LoadedConfig } from '../config/load.js';
import { resolve } from 'node:path';
import type { Style } from '../output/style.js';
import { terminalLine } from '../output/terminal-text.js';
import type { SandboxReport } from './doctor-checks.js';

/** The sandbox report of `toolplane doctor`, when the config has a `sandbox:` section. */
export async function sandboxReportOf(loaded: LoadedConfig): Promise<SandboxReport | undefined> {
  const section = loaded.config.sandbox;
  if (section === undefined) return undefined;
  const { builtin } = loaded.config;
  const workspace = resolve(loaded.directory, builtin ? builtin.workspace : '.');
  const { checkSandbox } = await import('./doctor-checks.js');
  return checkSandbox(section, workspace);
}

/** The report as text lines: `sandbox docker: image FAILED SANDBOX_IMAGE_MISSING: ...`, then a hint. */
export function sandboxLines(report: SandboxReport, style: Style): string[] {
  const lines: string[] = [];
  for (const check of report.checks) {
    const status = check.ok ? style.green('ok') : style.red('FAILED');
    const code = check.code && !check.ok ? `${check.code}: ` : '';
    lines.push(`sandbox ${report.kind}: ${check.check} ${status} ${code}${terminalLine(check.detail)}`);
    if (check.hint) lines.push(`  ${style.dim('hint:')} ${terminalLine(check.hint)}`);
  }
  return lines;
}
