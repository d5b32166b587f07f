import { ToolError } from '@toolplane/core';
import { isMcpAuth } from './auth/mcp-auth.js';
import { LONGEST_TIMER_MS } from './config/schema.js';
import { unknownKeyMessage, unknownKeys } from './config/unknown-keys.js';

/** The keys of createMcpProvider's options: any other is a typo, refused rather than dropped. */
const OPTION_KEYS: ReadonlySet<string> = new Set([
  'registry',
  'onEvent',
  'runDirectory',
  'toolCacheDirectory',
  'restartPolicy',
  'killGraceMs',
  'sessionFactory',
  'elicitation',
  'sampling',
  'roots',
  'auth',
]);
const REQUIRED_RESTART_POLICY_KEYS: readonly string[] = [
  'backoffMs',
  'maxRestarts',
  'crashWindowMs',
  'healthyResetMs',
];
const RESTART_POLICY_KEYS: ReadonlySet<string> = new Set([
  ...REQUIRED_RESTART_POLICY_KEYS,
  'maxConsecutiveRestarts',
]);

const isWholeNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isTimerDelay = (value: unknown): boolean => isWholeNumber(value) && value <= LONGEST_TIMER_MS;
const TIMER_DELAY = `must be a whole number of milliseconds from 0 to ${LONGEST_TIMER_MS} (the longest a timer can wait)`;

/** The first problem of a restart policy as [field, what], or undefined. */
function restartPolicyProblem(policy: unknown): readonly [string, string] | undefined {
  if (typeof policy !== 'object' || policy === null || Array.isArray(policy)) {
    return ['restartPolicy', 'must be an object: { ...DEFAULT_RESTART_POLICY, maxRestarts: 3 }'];
  }
  const unknown = unknownKeys(policy, RESTART_POLICY_KEYS)[0];
  if (unknown !== undefined) {
    return [`restartPolicy.${unknown}`, unknownKeyMessage(unknown, RESTART_POLICY_KEYS, 'a restart policy')];
  }
  const record = policy as Record<string, unknown>;
  for (const key of REQUIRED_RESTART_POLICY_KEYS) {
    if (record[key] === undefined) {
      return [
        `restartPolicy.${key}`,
        'is missing: give all four fields (spread the defaults: { ...DEFAULT_RESTART_POLICY, maxRestarts: 3 })',
      ];
    }
  }
  const backoff = record.backoffMs;
  if (!Array.isArray(backoff) || backoff.length === 0) {
    return [
      'restartPolicy.backoffMs',
      'must be an array of at least one delay in milliseconds ([0, 1000, 5000])',
    ];
  }
  const bad = backoff.findIndex((delay) => !isTimerDelay(delay));
  if (bad >= 0) return [`restartPolicy.backoffMs[${bad}]`, TIMER_DELAY];
  for (const key of ['maxRestarts', 'crashWindowMs', 'healthyResetMs', 'maxConsecutiveRestarts'] as const) {
    if (key === 'maxConsecutiveRestarts' && record[key] === undefined) continue;
    if (!isWholeNumber(record[key])) return [`restartPolicy.${key}`, 'must be a whole number of 0 or more'];
  }
  return undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first problem of the elicitation, sampling and roots options, or undefined. */
function clientFeatureProblem(record: Record<string, unknown>): readonly [string, string] | undefined {
  const { elicitation, sampling, roots } = record;
  if (elicitation !== undefined) {
    if (!isRecord(elicitation) || typeof elicitation.elicit !== 'function')
      return ['elicitation', 'must be a channel: { elicit(request, signal) }'];
    const modes = elicitation.modes;
    if (
      modes !== undefined &&
      !(Array.isArray(modes) && modes.length > 0 && modes.every((mode) => mode === 'form' || mode === 'url'))
    )
      return ['elicitation.modes', "must list 'form', 'url' or both"];
  }
  if (sampling !== undefined) {
    if (
      !isRecord(sampling) ||
      !isRecord(sampling.handler) ||
      typeof sampling.handler.createMessage !== 'function'
    )
      return [
        'sampling',
        'must be { handler: { createMessage(request, signal) } } (createOpenAiSampler() makes one)',
      ];
    if (
      sampling.approvals !== undefined &&
      typeof (sampling.approvals as { request?: unknown })?.request !== 'function'
    )
      return ['sampling.approvals', 'must be an approval channel: { request(request, signal) }'];
    if (sampling.requireApproval !== undefined && typeof sampling.requireApproval !== 'boolean')
      return ['sampling.requireApproval', 'must be true or false'];
    for (const key of ['maxTokensPerSession', 'maxRequestBytes'] as const) {
      if (sampling[key] !== undefined && !isWholeNumber(sampling[key]))
        return [`sampling.${key}`, 'must be a whole number of 0 or more'];
    }
    if (sampling.approvalTimeoutMs !== undefined && !isTimerDelay(sampling.approvalTimeoutMs))
      return ['sampling.approvalTimeoutMs', TIMER_DELAY];
  }
  if (roots !== undefined) {
    const listed = Array.isArray(roots) && roots.every((root) => typeof root === 'string' && root !== '');
    const source =
      isRecord(roots) && typeof roots.list === 'function' && typeof roots.subscribe === 'function';
    if (!listed && !source) return ['roots', 'must be a list of folder paths or createMcpRoots([...])'];
  }
  return undefined;
}

/** The first problem of the options as [field, what], or undefined. */
function optionProblem(options: object): readonly [string, string] | undefined {
  const unknown = unknownKeys(options, OPTION_KEYS)[0];
  if (unknown !== undefined) {
    return [unknown, unknownKeyMessage(unknown, OPTION_KEYS, 'the options of createMcpProvider')];
  }
  const record = options as Record<string, unknown>;
  for (const key of ['runDirectory', 'toolCacheDirectory'] as const) {
    const value = record[key];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      return [key, 'must be a directory path (a non-empty string), or left out for the default'];
    }
  }
  for (const key of ['onEvent', 'sessionFactory'] as const) {
    if (record[key] !== undefined && typeof record[key] !== 'function') return [key, 'must be a function'];
  }
  const registry = record.registry as { acquire?: unknown } | undefined;
  if (registry !== undefined && typeof registry?.acquire !== 'function') {
    return ['registry', 'must be a registry made by createSharedRegistry()'];
  }
  if (record.killGraceMs !== undefined && !isTimerDelay(record.killGraceMs))
    return ['killGraceMs', TIMER_DELAY];
  if (record.auth !== undefined && !isMcpAuth(record.auth))
    return ['auth', 'must be made by createMcpAuth({ store })'];
  const features = clientFeatureProblem(record);
  if (features) return features;
  return record.restartPolicy === undefined ? undefined : restartPolicyProblem(record.restartPolicy);
}

/**
 * Throws `CONFIG_INVALID` naming the first option of createMcpProvider that cannot be used: an
 * unknown key (with the one meant), a restart policy missing a field (its first crash threw an
 * unhandled TypeError and the server stayed "ready" though gone), a delay a timer cannot hold.
 */
export function checkProviderOptions(server: string, options: unknown): void {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ToolError(
      'CONFIG_INVALID',
      `MCP server "${server}": the options of createMcpProvider must be an object`,
      {
        details: { server },
      },
    );
  }
  const problem = optionProblem(options);
  if (problem === undefined) return;
  const [field, what] = problem;
  throw new ToolError('CONFIG_INVALID', `MCP server "${server}": ${field} ${what}`, {
    details: { server, field },
  });
}
