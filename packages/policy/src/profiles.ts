import type { ToolRef } from './config.js';

/**
 * Built-in profiles (design document 002), adapted to toolplane's groups: `coding` adds the
 * `notebook` and `todo` groups that toolplane's built-in tools use, and every profile keeps
 * `group:toolplane`, the orchestrator's own plumbing (`tool_output` reads back this session's
 * capped outputs; `batch` runs calls that are each checked on their own).
 */
export const BUILTIN_PROFILES: Readonly<Record<string, readonly ToolRef[]>> = {
  full: ['*'],
  coding: [
    'group:toolplane',
    'group:fs',
    'group:runtime',
    'group:notebook',
    'group:todo',
    'group:sessions',
    'group:memory',
    'image',
  ],
  messaging: [
    'group:toolplane',
    'group:messaging',
    'sessions_list',
    'sessions_history',
    'sessions_send',
    'session_status',
  ],
  minimal: ['group:toolplane', 'session_status'],
};

/** Always denied to child agents (design document 002). */
export const SUBAGENT_DENY: readonly ToolRef[] = [
  'gateway',
  'agents_list',
  'whatsapp_login',
  'session_status',
  'cron',
  'memory_search',
  'memory_get',
  'sessions_send',
];

/** Denied to child agents at the maximum depth, so leaves cannot spawn (design document 002). */
export const SUBAGENT_LEAF_DENY: readonly ToolRef[] = [
  'sessions_list',
  'sessions_history',
  'sessions_spawn',
  'spawn',
  'subagent',
  'subagents',
];
