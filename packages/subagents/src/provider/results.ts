import { type ToolResult, fail, failFromError, ok } from '@toolplane/core';
import type { RunOutcome } from '../manager/records.js';

/** The report's text as the parent's model reads it. */
export function reportText(outcome: RunOutcome): string {
  const report = outcome.report;
  if (!report) return '';
  const body = report.content ?? JSON.stringify(report.contentJson);
  return report.status === 'success' ? body : `[the subagent reported ${report.status}]\n${body}`;
}

/** A finished run as a tool result: the report (text, structured outcome), or the run's failure. */
export function outcomeResult(outcome: RunOutcome): ToolResult {
  if (outcome.status === 'completed') {
    return ok(reportText(outcome), {
      id: outcome.id,
      agent: outcome.agent,
      status: outcome.status,
      report: outcome.report,
      iterations: outcome.iterations,
      usage: outcome.usage,
    });
  }
  const error = outcome.error ?? { code: 'EXECUTION_FAILED' as const, message: 'the subagent failed' };
  return fail(error.code, `subagent "${outcome.agent}" (${outcome.id}) ${outcome.status}: ${error.message}`, {
    details: {
      id: outcome.id,
      agent: outcome.agent,
      status: outcome.status,
      usage: outcome.usage,
      ...(error.details ? { limit: error.details.limit } : {}),
    },
  });
}

/** Runs `work`, turning a thrown refusal (a limit) into its failed result. */
export async function guarded(work: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await work();
  } catch (error) {
    return failFromError(error);
  }
}
