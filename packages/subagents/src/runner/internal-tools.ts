import { type JsonSchema, type ToolSpec, compileSchema, formatIssues } from '@toolplane/core';
import type { AgentRunRequest, FinalReport, TaskStatus } from './runner-types.js';

/** Ends the run with the agent's answer. */
export const FINAL_REPORT_TOOL = 'agent__final_report';
/** Tracks progress; forces the final turn when the three conditions hold. */
export const TASK_STATUS_TOOL = 'agent__task_status';
/** Hands the task to another agent (only when destinations are configured). */
export const HANDOFF_TOOL = 'router__handoff-to';

/** What a call of one of the runner's own tools decided. */
export type InternalOutcome =
  | { readonly kind: 'report'; readonly report: FinalReport }
  | { readonly kind: 'status'; readonly status: TaskStatus; readonly forceFinal: boolean }
  | { readonly kind: 'handoff'; readonly agent: string; readonly message?: string }
  | { readonly kind: 'invalid'; readonly message: string };

const TEXT_FORMATS_NOTE = 'Give `content` (text) for every format but json, `content_json` for json.';

function finalReportSpec(request: AgentRunRequest): ToolSpec {
  const format = request.report.format;
  const properties: Record<string, JsonSchema> = {
    status: { type: 'string', enum: ['success', 'failure', 'partial'] },
    format: { type: 'string', const: format },
    metadata: { type: 'object', description: 'Optional facts passed through to the caller.' },
  };
  if (format === 'json') properties.content_json = request.report.schema ?? { type: 'object' };
  else properties.content = { type: 'string', description: 'The report.' };
  return {
    name: FINAL_REPORT_TOOL,
    description: `Delivers your final answer and ends your run. Call it once, when the task is done or cannot be done (status failure). ${TEXT_FORMATS_NOTE}`,
    inputSchema: {
      type: 'object',
      properties,
      required: ['status', 'format', format === 'json' ? 'content_json' : 'content'],
    },
    sideEffect: 'none',
  };
}

const TASK_STATUS_SPEC: ToolSpec = {
  name: TASK_STATUS_TOOL,
  description:
    'Records your progress. When status is completed, ready_for_final_report is true and need_to_run_more_tools is false, your next turn may only call agent__final_report.',
  inputSchema: {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['starting', 'in-progress', 'completed'] },
      done: { type: 'string' },
      pending: { type: 'string' },
      now: { type: 'string' },
      ready_for_final_report: { type: 'boolean' },
      need_to_run_more_tools: { type: 'boolean' },
    },
    required: ['status', 'done', 'pending', 'now', 'ready_for_final_report', 'need_to_run_more_tools'],
  },
  sideEffect: 'none',
};

function handoffSpec(destinations: NonNullable<AgentRunRequest['handoff']>['destinations']): ToolSpec {
  return {
    name: HANDOFF_TOOL,
    description: `Hands the whole task to another agent and ends your run: ${destinations
      .map((d) => `${d.name} (${d.description})`)
      .join('; ')}.`,
    inputSchema: {
      type: 'object',
      properties: {
        agent: { type: 'string', enum: destinations.map((d) => d.name) },
        message: { type: 'string', description: 'Advice for the destination agent.' },
      },
      required: ['agent'],
    },
    sideEffect: 'none',
  };
}

/** The runner's own tools for a request: final_report, task_status (unless off), handoff (with destinations). */
export function internalToolSpecs(request: AgentRunRequest): ToolSpec[] {
  const specs = [finalReportSpec(request)];
  if (request.taskStatus !== false) specs.push(TASK_STATUS_SPEC);
  const destinations = request.handoff?.destinations ?? [];
  if (destinations.length > 0) specs.push(handoffSpec(destinations));
  return specs;
}

/** True for the names {@link internalToolSpecs} may offer. */
export function isInternalTool(name: string): boolean {
  return name === FINAL_REPORT_TOOL || name === TASK_STATUS_TOOL || name === HANDOFF_TOOL;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function checkReport(args: Record<string, unknown>, request: AgentRunRequest, now: number): InternalOutcome {
  const format = request.report.format;
  const status = args.status;
  if (status !== 'success' && status !== 'failure' && status !== 'partial') {
    return { kind: 'invalid', message: 'args.status: must be one of success, failure, partial' };
  }
  if (args.format !== format) {
    return { kind: 'invalid', message: `args.format: must be "${format}"` };
  }
  if (args.metadata !== undefined && !record(args.metadata)) {
    return { kind: 'invalid', message: 'args.metadata: must be an object' };
  }
  const metadata = record(args.metadata);
  if (format === 'json') {
    if (args.content_json === undefined)
      return { kind: 'invalid', message: 'args.content_json: is required for format json' };
    if (request.report.schema) {
      const outcome = compileSchema(request.report.schema).validate(args.content_json);
      if (!outcome.valid) {
        return {
          kind: 'invalid',
          message: `content_json does not match the report schema: ${formatIssues(outcome).replaceAll('args', 'content_json')}`,
        };
      }
    }
    return {
      kind: 'report',
      report: { status, format, contentJson: args.content_json, ...(metadata ? { metadata } : {}), ts: now },
    };
  }
  if (typeof args.content !== 'string') return { kind: 'invalid', message: 'args.content: must be a string' };
  return {
    kind: 'report',
    report: { status, format, content: args.content, ...(metadata ? { metadata } : {}), ts: now },
  };
}

function checkStatus(args: Record<string, unknown>): InternalOutcome {
  const status = args.status;
  if (status !== 'starting' && status !== 'in-progress' && status !== 'completed') {
    return { kind: 'invalid', message: 'args.status: must be one of starting, in-progress, completed' };
  }
  for (const key of ['done', 'pending', 'now'] as const) {
    if (typeof args[key] !== 'string') return { kind: 'invalid', message: `args.${key}: must be a string` };
  }
  for (const key of ['ready_for_final_report', 'need_to_run_more_tools'] as const) {
    if (typeof args[key] !== 'boolean') return { kind: 'invalid', message: `args.${key}: must be a boolean` };
  }
  const parsed: TaskStatus = {
    status,
    done: args.done as string,
    pending: args.pending as string,
    now: args.now as string,
    readyForFinalReport: args.ready_for_final_report as boolean,
    needToRunMoreTools: args.need_to_run_more_tools as boolean,
  };
  return { kind: 'status', status: parsed, forceFinal: isReadyToReport(parsed) };
}

/** The completion rule of design document 001: all three conditions, not any one. */
export function isReadyToReport(status: TaskStatus): boolean {
  return status.status === 'completed' && status.readyForFinalReport && !status.needToRunMoreTools;
}

/**
 * Interprets a call of one of the runner's own tools. Custom runners use it to get the same
 * rules as the reference runner.
 *
 * @example
 * const outcome = interpretInternalCall('agent__final_report', args, request);
 * if (outcome.kind === 'report') return { report: outcome.report, ... };
 */
export function interpretInternalCall(
  name: string,
  args: unknown,
  request: AgentRunRequest,
  now: number = Date.now(),
): InternalOutcome {
  const fields = record(args);
  if (!fields) return { kind: 'invalid', message: 'the arguments must be a JSON object' };
  if (name === FINAL_REPORT_TOOL) return checkReport(fields, request, now);
  if (name === TASK_STATUS_TOOL && request.taskStatus !== false) return checkStatus(fields);
  if (name === HANDOFF_TOOL) {
    const names = (request.handoff?.destinations ?? []).map((d) => d.name);
    if (typeof fields.agent !== 'string' || !names.includes(fields.agent)) {
      return {
        kind: 'invalid',
        message: `args.agent: must be one of ${names.join(', ') || '(no destinations)'}`,
      };
    }
    if (fields.message !== undefined && typeof fields.message !== 'string') {
      return { kind: 'invalid', message: 'args.message: must be a string' };
    }
    return {
      kind: 'handoff',
      agent: fields.agent,
      ...(typeof fields.message === 'string' ? { message: fields.message } : {}),
    };
  }
  return { kind: 'invalid', message: `${name} is not one of the runner's tools` };
}
