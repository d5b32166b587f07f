// The `agents:` and `model:` sections: subagent definitions and the model endpoint of `agent run`.
import { PERMISSION_MODES } from '@toolplane/policy';
import { z } from 'zod';

/** The longest delay a Node timer holds. */
const MAX_TIMER_MS = 2_147_483_647;
const positiveMs = z
  .number()
  .int()
  .positive()
  .max(MAX_TIMER_MS, `at most ${MAX_TIMER_MS} ms (about 24 days), the longest a timer holds`);
const positiveInt = z.number().int().positive();
const toolRefs = z.array(z.string().min(1));
const text = z.string().trim().min(1, 'must not be empty');

/** Names the runner's own tools take (`agent__final_report`...): `@toolplane/subagents`' list. */
const RESERVED = ['final_report', 'task_status', 'batch'];

/** An agent's name: its tool is `agent__{name}`. */
const agentName = z
  .string()
  .regex(
    /^[A-Za-z0-9_-]{1,48}$/,
    'an agent name uses 1 to 48 letters, digits, "_" and "-" (its tool is agent__NAME)',
  )
  .refine((name) => !RESERVED.includes(name), {
    message: `the names ${RESERVED.join(', ')} are taken by the runner's own tools (agent__final_report...): rename the agent`,
  });

/** A JSON Schema written in the config; compiled by `config/agent-issues.ts`. */
const jsonSchema = z.record(z.string(), z.unknown());

/** One subagent, keyed by its name. */
export const agentDefinitionSchema = z.strictObject({
  description: text,
  systemPrompt: text,
  model: z.string().min(1).optional(),
  /** Which of the parent's tools the subagent keeps (policy tool references). */
  tools: z.strictObject({ allow: toolRefs.optional(), deny: toolRefs.optional() }).optional(),
  inputSchema: jsonSchema.optional(),
  output: z.strictObject({ format: z.string().min(1).optional(), schema: jsonSchema.optional() }).optional(),
  budgets: z
    .strictObject({
      maxTokens: positiveInt.optional(),
      maxWallTimeMs: positiveMs.optional(),
      maxIterations: positiveInt.optional(),
    })
    .optional(),
  mode: z.enum(PERMISSION_MODES as [string, ...string[]]).optional(),
  router: z.strictObject({ destinations: z.array(agentName) }).optional(),
});

/** `agents:` of the config. */
export const agentsSchema = z.record(agentName, agentDefinitionSchema);

/** `model:` of the config: the OpenAI-compatible endpoint `agent run` talks to. */
export const modelSchema = z.strictObject({
  /** Endpoint root up to `/v1`; `OPENAI_BASE_URL` when absent. `${VAR}` is expanded. */
  baseUrl: z.string().min(1).optional(),
  /** A `${VAR}` reference to the key; `OPENAI_API_KEY` when absent. */
  apiKey: z
    .string()
    .regex(
      /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} form the message asks for
      'give the key as an environment variable reference, such as "${OPENAI_API_KEY}": a key written in the file would be read by everyone who reads the config',
    )
    .optional(),
  /** The model id of the root agent (and of subagents that name none). */
  name: z.string().min(1).optional(),
  requestTimeoutMs: positiveMs.optional(),
  idleTimeoutMs: positiveMs.optional(),
  maxRetries: z.number().int().nonnegative().max(10).optional(),
  stream: z.boolean().optional(),
});

/** `limits.agents`: the subagent manager's limits. */
export const agentLimitsSchema = z.strictObject({
  maxConcurrent: positiveInt.optional(),
  maxSpawnDepth: positiveInt.optional(),
  maxChildrenPerAgent: positiveInt.optional(),
  maxIterations: positiveInt.optional(),
  maxTokensPerChild: positiveInt.optional(),
  maxWallTimeMs: positiveMs.optional(),
});
