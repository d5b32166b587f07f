import { PERMISSION_MODES } from '@toolplane/policy';
import { z } from 'zod';
import { agentLimitsSchema, agentsSchema, modelSchema } from './agents-schema.js';
import { sandboxSchema } from './sandbox-schema.js';

const namespace = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/, 'use only letters, digits, "_" and "-" (it prefixes tool names)');
const toolRefs = z.array(z.string().min(1));
/** The longest delay a Node timer holds; a longer one fires after 1 ms (a start deadline at once). */
const MAX_TIMER_MS = 2_147_483_647;
const positiveMs = z
  .number()
  .int()
  .positive()
  .max(MAX_TIMER_MS, `at most ${MAX_TIMER_MS} ms (about 24 days), the longest a timer holds`);

/** One REST tool; the REST provider checks the rest of its fields when it is created. */
const restToolSchema = z.looseObject({
  description: z.string().min(1),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']),
  url: z.string().min(1),
  parametersSchema: z.record(z.string(), z.unknown()),
});

const restProviderSchema = z
  .strictObject({
    namespace,
    tools: z.record(z.string(), restToolSchema).optional(),
    file: z.string().min(1).optional(),
    /** Sent with every tool's request (a tool's own header of that name wins); `${VAR}` is read at each call. */
    headers: z.record(z.string(), z.string()).optional(),
    timeoutMs: positiveMs.optional(),
    maxResponseBytes: z.number().int().positive().optional(),
  })
  .refine((entry) => (entry.tools === undefined) !== (entry.file === undefined), {
    message: 'give either "tools" (inline) or "file" (a tool config written by `toolplane openapi import`)',
  });

const operationFilter = z.strictObject({
  tags: z.array(z.string()).optional(),
  methods: z.array(z.string()).optional(),
  paths: z.array(z.string()).optional(),
  operationIds: z.array(z.string()).optional(),
});

/** Credentials of one security scheme of a document; values are usually `${VAR}`. */
const schemeCredentials = z.strictObject({
  value: z.string().optional(),
  token: z.string().optional(),
  username: z.string().optional(),
  password: z.string().optional(),
  clientId: z.string().optional(),
  clientSecret: z.string().optional(),
  tokenUrl: z.string().optional(),
});

const openApiProviderSchema = z.strictObject({
  namespace,
  source: z.string().min(1),
  include: operationFilter.optional(),
  exclude: operationFilter.optional(),
  baseUrl: z.string().optional(),
  server: z.union([z.number().int().nonnegative(), z.string()]).optional(),
  envPrefix: z.string().optional(),
  credentials: z.record(z.string(), schemeCredentials).optional(),
  allowedTokenOrigins: z.array(z.string()).optional(),
  /** Sent with every imported operation's request (`Authorization: Bearer ${GITHUB_TOKEN}`). */
  headers: z.record(z.string(), z.string()).optional(),
  timeoutMs: positiveMs.optional(),
});

const builtinSchema = z.strictObject({
  workspace: z.string().min(1).default('.'),
  // the names in a list are checked against the built-in package's (config/builtin-names.ts), which
  // is loaded only then: a config without built-in tools does not load that package at all
  tools: z.union([z.enum(['read-only', 'all']), z.array(z.string())]).default('read-only'),
  envAllowList: z.array(z.string()).optional(),
  protectedPaths: z.array(z.string()).optional(),
});

const agentSchema = z.strictObject({
  profile: z.string().optional(),
  allow: toolRefs.optional(),
  deny: toolRefs.optional(),
  alsoAllow: toolRefs.optional(),
  byProvider: z.record(z.string(), z.strictObject({ allow: toolRefs.optional() })).optional(),
});

const policySchema = z.strictObject({
  profile: z.string().optional(),
  profiles: z.record(z.string(), toolRefs).optional(),
  groups: z.record(z.string(), toolRefs).optional(),
  allow: toolRefs.optional(),
  deny: toolRefs.optional(),
  alsoAllow: toolRefs.optional(),
  byProvider: z
    .record(z.string(), z.strictObject({ profile: z.string().optional(), allow: toolRefs.optional() }))
    .optional(),
  agents: z.record(z.string(), agentSchema).optional(),
  channels: z.record(z.string(), z.strictObject({ allow: toolRefs.optional() })).optional(),
  subagents: z
    .strictObject({
      deny: toolRefs.optional(),
      leafDeny: toolRefs.optional(),
      maxDepth: z.number().int().nonnegative().optional(),
    })
    .optional(),
  commands: z
    .strictObject({
      allow: z.array(z.string()).optional(),
      ask: z.array(z.string()).optional(),
      deny: z.array(z.string()).optional(),
      disableDefaultRules: z.array(z.string()).optional(),
      protectedPaths: z.array(z.string()).optional(),
    })
    .optional(),
  autoAllow: toolRefs.optional(),
  alwaysAsk: toolRefs.optional(),
  mode: z.enum(PERMISSION_MODES as [string, ...string[]]).optional(),
  shadow: z.boolean().optional(),
});

const limitsSchema = z.strictObject({
  /** Deadline of one call. */
  timeoutMs: positiveMs.default(120_000),
  /** How long a provider may take to start. */
  startTimeoutMs: positiveMs.default(60_000),
  /** Calls running at once (default unlimited). */
  maxConcurrency: z.number().int().positive().optional(),
  /** Output a model gets before the rest is stored behind a handle. */
  maxOutputBytes: z
    .number()
    .int()
    .min(1024)
    .default(64 * 1024),
  /** How long a person has to answer an approval question. */
  approvalTimeoutMs: positiveMs.default(120_000),
  rateLimit: z
    .strictObject({ capacity: z.number().min(1), refillPerSecond: z.number().positive() })
    .optional(),
  /** Limits of `agent run`'s subagents (the subagent manager's defaults when absent). */
  agents: agentLimitsSchema.optional(),
});

const scrubberSchema = z.strictObject({
  enabled: z.boolean().default(true),
  disabledRules: z.array(z.string()).optional(),
  /** Names of environment variables whose values are redacted wherever they appear. */
  secretEnv: z.array(z.string()).optional(),
});

/** The schema of `toolplane.config.json` / `.yaml`. */
export const configSchema = z.strictObject({
  $schema: z.string().optional(),
  mcpServers: z.record(z.string(), z.unknown()).optional(),
  rest: z.array(restProviderSchema).optional(),
  openapi: z.array(openApiProviderSchema).optional(),
  builtin: z.union([z.literal(false), builtinSchema]).optional(),
  policy: policySchema.default({}),
  limits: limitsSchema.default(limitsSchema.parse({})),
  scrubber: scrubberSchema.default(scrubberSchema.parse({})),
  /** Subagents of `agent run`, by name. */
  agents: agentsSchema.optional(),
  /** The model endpoint of `agent run`. */
  model: modelSchema.optional(),
  /** Where the built-in shell tools run: docker, bwrap or the host (default). */
  sandbox: sandboxSchema.optional(),
});

/** A validated config, defaults filled in. */
export type ToolplaneConfig = z.output<typeof configSchema>;

/** Top-level keys of a toolplane config (a file with other keys is read as a plain MCP file). */
export const CONFIG_KEYS: ReadonlySet<string> = new Set(Object.keys(configSchema.shape));
