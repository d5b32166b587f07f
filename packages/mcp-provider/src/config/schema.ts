import { z } from 'zod';

const durationMs = z.number().int().nonnegative();
const patterns = z.array(z.string().min(1));

// What a process (command line, environment) and an HTTP request can carry. The messages
// never quote the value: it may be a secret.
const NUL = '\u0000';
/** A string a process can be given: no NUL (spawn refuses it, at start time). */
const processString = z.string().refine((value) => !value.includes(NUL), {
  error: 'contains a NUL character, which a process cannot be given: remove it',
});
const environmentName = z
  .string()
  .min(1, { error: 'is an empty variable name: name the variable' })
  .refine((name) => !name.includes('='), {
    error: 'has "=" in a variable name, which would set another variable: rename it',
  })
  .refine((name) => !name.includes(NUL), { error: 'has a NUL character in a variable name: rename it' });
const environment = z.record(environmentName, processString);
/** RFC 9110 token: the characters a header name may have. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const headerName = z.string().regex(HEADER_NAME, {
  error: "is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only): rename it",
});
const headerValue = z.string().refine((value) => !['\r', '\n', NUL].some((bad) => value.includes(bad)), {
  error: 'has a line break or NUL character in its value, which a request cannot carry: remove it',
});
const headerMap = z.record(headerName, headerValue);

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
  command: z
    .string({ error: 'is missing: set the executable to run (for example "npx")' })
    .min(1, {
      error: 'is empty: set the executable to run (for example "npx")',
    })
    .pipe(processString),
  args: z.array(processString).optional(),
  cwd: z.string().min(1).pipe(processString).optional(),
  env: environment.optional(),
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
  headers: headerMap.optional(),
  bearerToken: z.string().min(1).pipe(headerValue).optional(),
});

/** Validates a WebSocket server entry. */
export const websocketServerSchema = z.object({
  ...common,
  type: z.literal('websocket'),
  url: urlWithProtocols(['ws:', 'wss:']),
  headers: headerMap.optional(),
  bearerToken: z.string().min(1).pipe(headerValue).optional(),
});
