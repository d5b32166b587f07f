import { z } from 'zod';

const durationMs = z.number().int().nonnegative();
const stringMap = z.record(z.string(), z.string());
const patterns = z.array(z.string().min(1));

const common = {
  enabled: z.boolean().optional(),
  client: z.enum(['v1', 'v2']).optional(),
  toolsAllowed: patterns.optional(),
  toolsDenied: patterns.optional(),
  toolSchemas: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  requestTimeoutMs: durationMs.positive().optional(),
  maxTotalTimeoutMs: durationMs.positive().optional(),
  startupTimeoutMs: durationMs.positive().optional(),
  healthProbe: z.enum(['ping', 'listTools', 'none']).optional(),
  healthIntervalMs: durationMs.optional(),
  shared: z.boolean().optional(),
  lazy: z.boolean().optional(),
  idleTimeoutMs: durationMs.positive().optional(),
  queue: z.string().min(1).optional(),
  cacheTtlMs: durationMs.optional(),
  toolsCacheTtlMs: z.record(z.string(), durationMs).optional(),
  resources: z.boolean().optional(),
};

/** Validates a stdio server entry. */
export const stdioServerSchema = z.object({
  ...common,
  type: z.literal('stdio'),
  command: z.string({ error: 'is missing: set the executable to run (for example "npx")' }).min(1, {
    error: 'is empty: set the executable to run (for example "npx")',
  }),
  args: z.array(z.string()).optional(),
  cwd: z.string().min(1).optional(),
  env: stringMap.optional(),
  inheritEnv: z.boolean().optional(),
  stderrTailBytes: durationMs.positive().optional(),
  maxMessageBytes: durationMs.positive().optional(),
});

function urlWithProtocols(protocols: readonly string[]) {
  return z.string({ error: 'is missing: set the server URL' }).refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: `must be an absolute ${protocols.join(' or ')}// URL` },
  );
}

/** Validates a remote server entry. */
export const remoteServerSchema = z.object({
  ...common,
  type: z.enum(['http', 'sse']).optional(),
  url: urlWithProtocols(['http:', 'https:']),
  headers: stringMap.optional(),
  bearerToken: z.string().min(1).optional(),
});

/** Validates a WebSocket server entry. */
export const websocketServerSchema = z.object({
  ...common,
  type: z.literal('websocket'),
  url: urlWithProtocols(['ws:', 'wss:']),
  headers: stringMap.optional(),
  bearerToken: z.string().min(1).optional(),
});
