import type { ToolView } from '@toolplane/core';
import type { StepRecord } from './pipeline-steps.js';

/** Why a principal does or does not see a tool. */
export interface Explanation {
  readonly tool: string;
  readonly known: boolean;
  readonly visible: boolean;
  /** The last step that changed the outcome (removed it, added it back, or kept it). */
  readonly decidedBy?: StepRecord;
  readonly steps: readonly StepRecord[];
  /** The same, as lines for a terminal. */
  readonly text: string;
}

function who(view: ToolView): string {
  const parts = [`agent "${view.principal.agentId ?? '(none)'}"`];
  if (view.principal.channel !== undefined) parts.push(`channel "${view.principal.channel}"`);
  parts.push(`depth ${view.session.depth}`);
  return parts.join(', ');
}

/** Formats an explanation as a table of steps. */
export function formatExplanation(
  tool: string,
  view: ToolView,
  visible: boolean,
  steps: readonly StepRecord[],
  decidedBy: StepRecord | undefined,
): string {
  const lines = [`${tool} for ${who(view)}: ${visible ? 'VISIBLE' : 'HIDDEN'}`];
  steps.forEach((record, index) => {
    const number = String(index + 1).padStart(2);
    const step = record.step.padEnd(20);
    const outcome = record.outcome.padEnd(10);
    const rule = record.rule ? ` [${record.rule}]` : '';
    lines.push(`  ${number}. ${step} ${outcome} ${record.detail}${rule}`);
  });
  if (decidedBy)
    lines.push(
      `  decided by: ${decidedBy.step}${decidedBy.rule ? ` [${decidedBy.rule}]` : ''}: ${decidedBy.detail}`,
    );
  return lines.join('\n');
}

/** The step that decided: the last removal when hidden, the last keep or add when visible. */
export function decidingStep(visible: boolean, steps: readonly StepRecord[]): StepRecord | undefined {
  const wanted = visible ? ['added', 'kept'] : ['removed'];
  for (let index = steps.length - 1; index >= 0; index--) {
    const record = steps[index] as StepRecord;
    if (wanted.includes(record.outcome)) return record;
  }
  return undefined;
}
