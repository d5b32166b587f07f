import { z } from 'zod';

/** Glob patterns; picomatch read a leading "!" as a negation, which these globs do not. */
const patterns = z.array(
  z
    .string()
    .min(1)
    .refine((pattern) => !pattern.startsWith('!'), {
      error:
        'starts with "!", which is not a negation here: list the tools to hide in toolsDenied and the tools to keep in toolsAllowed',
    }),
);

/** What a value is, for a message (never the value itself: it may be a secret). */
function kindOf(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'an array';
  return typeof input === 'object' ? 'an object' : `a ${typeof input}`;
}

/** The message for a value that is not a string (zod's own says only "Invalid input"). */
function notAString(issue: { readonly input?: unknown }): string {
  const quote = typeof issue.input === 'number' || typeof issue.input === 'boolean';
  return `must be a string, not ${kindOf(issue.input)}${quote ? ': quote it in the config' : ''}`;
}

/** A whole number of `unit` (0 or more), named with what it must be instead of zod's "Invalid input". */
function wholeNumber(unit: string) {
  return z
    .number({
      error: (issue) => {
        if (issue.code !== 'invalid_type') return undefined;
        if (typeof issue.input === 'number') return `must be a whole number of ${unit}`;
        const quoted = typeof issue.input === 'string' ? ': remove the quotes' : '';
        return `must be a number of ${unit}, not ${kindOf(issue.input)}${quoted}`;
      },
    })
    .int({ error: `must be a whole number of ${unit}` })
    .nonnegative({ error: 'must be 0 or more' });
}
const durationMs = wholeNumber('milliseconds');
const byteCount = wholeNumber('bytes');
const MORE_THAN_ZERO = { error: 'must be more than 0' } as const;

/** A switch, named with what it must be (a quoted "true" is a string). */
const flag = z.boolean({
  error: (issue) =>
    issue.code === 'invalid_type'
      ? `must be true or false, not ${kindOf(issue.input)}${typeof issue.input === 'string' ? ': remove the quotes' : ''}`
      : undefined,
});

/** The longest delay a Node timer holds; a longer one fires at once (TimeoutOverflowWarning). */
export const LONGEST_TIMER_MS = 2_147_483_647;
/** A delay a timer waits for: a longer one would fire at once, so every request timed out. */
const timerMs = durationMs.max(LONGEST_TIMER_MS, {
  error: `must be at most ${LONGEST_TIMER_MS} milliseconds (about 24.8 days), the longest a timer can wait: lower it`,
});

/** A string field whose wrong-type message is `message(input)`. */
function text(message: (input: unknown) => string = (input) => notAString({ input })) {
  return z.string({ error: (issue) => (issue.code === 'invalid_type' ? message(issue.input) : undefined) });
}

// What a process (command line, environment) and an HTTP request can carry. The messages
// never quote the value: it may be a secret.
const NUL = '\u0000';
const noNul = (value: string): boolean => !value.includes(NUL);
const NUL_MESSAGE = 'contains a NUL character, which a process cannot be given: remove it';
/** A string a process can be given: no NUL (spawn refuses it, at start time). */
const processString = text().refine(noNul, { error: NUL_MESSAGE });
/** An env value; VS Code's `null` ("remove this variable") has no meaning here. */
const environmentValue = text((input) =>
  input === null
    ? 'is null, which VS Code reads as "remove this variable"; here a server cannot remove a variable (it gets only a safe default set, PATH HOME USER..., plus its env): remove the entry'
    : notAString({ input }),
).refine(noNul, { error: NUL_MESSAGE });
const environmentName = z
  .string()
  .min(1, { error: 'is an empty variable name: name the variable' })
  .refine((name) => !name.includes('='), {
    error: 'has "=" in a variable name, which would set another variable: rename it',
  })
  .refine((name) => !name.includes(NUL), { error: 'has a NUL character in a variable name: rename it' });
const environment = z.record(environmentName, environmentValue, {
  error: (issue) =>
    issue.code === 'invalid_type'
      ? `must be an object of variable names to values ({"NAME": "value"}), not ${kindOf(issue.input)}`
      : undefined,
});
/** RFC 9110 token: the characters a header name may have. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const headerName = z.string().regex(HEADER_NAME, {
  error: "is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only): rename it",
});
const headerValue = text()
  .refine((value) => !['\r', '\n', NUL].some((bad) => value.includes(bad)), {
    error: 'has a line break or NUL character in its value, which a request cannot carry: remove it',
  })
  // A header is bytes: fetch and ws refuse a character above U+00FF at the first request.
  .refine((value) => [...value].every((character) => (character.codePointAt(0) ?? 0) <= 0xff), {
    error:
      'has a character beyond Latin-1 (above U+00FF, such as a euro sign or an emoji), which a request header cannot carry: percent-encode it or remove it',
  });
/** The token alone: the provider sends `Authorization: Bearer <token>` itself. */
const bearerToken = text()
  // fetch trims a header value: blanks were sent as "Authorization: Bearer", with no token
  .refine((token) => token.trim() !== '', {
    error:
      'is empty or only spaces, so no token would be sent: set the token (is the variable it comes from unset?), or remove bearerToken',
  })
  .pipe(headerValue)
  .refine((token) => !/^bearer\s/i.test(token), {
    error:
      'starts with "Bearer ", which the provider adds itself (it would send "Bearer Bearer ..."): give the token alone',
  });
const headerMap = z.record(headerName, headerValue, {
  error: (issue) =>
    issue.code === 'invalid_type'
      ? `must be an object of header names to values ({"Authorization": "Bearer ..."}), not ${kindOf(issue.input)}`
      : undefined,
});

const common = {
  enabled: flag.optional(),
  client: z.enum(['v1', 'v2']).optional(),
  toolsAllowed: patterns
    .min(1, {
      error:
        'is empty, which would allow no tool (an empty allow-list is most likely a mistake): remove toolsAllowed to allow all tools, or disable the server',
    })
    .optional(),
  toolsDenied: patterns.optional(),
  toolSchemas: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  requestTimeoutMs: timerMs.positive(MORE_THAN_ZERO).optional(),
  maxTotalTimeoutMs: timerMs.positive(MORE_THAN_ZERO).optional(),
  startupTimeoutMs: timerMs.positive(MORE_THAN_ZERO).optional(),
  healthProbe: z.enum(['ping', 'listTools', 'none']).optional(),
  healthIntervalMs: timerMs.optional(),
  shared: flag.optional(),
  lazy: flag.optional(),
  idleTimeoutMs: timerMs.positive(MORE_THAN_ZERO).optional(),
  queue: z.string().min(1).optional(),
  cacheTtlMs: durationMs.optional(),
  toolsCacheTtlMs: z.record(z.string(), durationMs).optional(),
  resources: flag.optional(),
};

/** Validates a stdio server entry. */
export const stdioServerSchema = z.object({
  ...common,
  type: z.literal('stdio'),
  command: text((input) => {
    if (input === undefined) return 'is missing: set the executable to run (for example "npx")';
    if (Array.isArray(input)) {
      return 'is an array: put the executable in "command" and the rest in "args" ("command": "npx", "args": ["-y", "server"])';
    }
    return `must be a string: the executable to run (for example "npx"), not ${kindOf(input)}`;
  })
    .min(1, {
      error: 'is empty: set the executable to run (for example "npx")',
    })
    .refine((command) => command === '' || command.trim() !== '', {
      error: 'is only spaces: set the executable to run (for example "npx")',
    })
    .pipe(processString),
  args: z
    .array(processString, {
      error: (issue) =>
        issue.code === 'invalid_type'
          ? `must be an array of strings, one per argument (["-y", "server"]), not ${kindOf(issue.input)}`
          : undefined,
    })
    .optional(),
  cwd: text().min(1).pipe(processString).optional(),
  env: environment.optional(),
  inheritEnv: flag.optional(),
  stderrTailBytes: byteCount.positive(MORE_THAN_ZERO).optional(),
  maxMessageBytes: byteCount.positive(MORE_THAN_ZERO).optional(),
});

function urlWithProtocols(protocols: readonly string[]) {
  return text((input) =>
    input === undefined
      ? 'is missing: set the server URL'
      : `must be a string: the server URL (${protocols.map((protocol) => `${protocol}//...`).join(' or ')}), not ${kindOf(input)}`,
  ).refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { error: `must be an absolute ${protocols.map((protocol) => `${protocol}//`).join(' or ')} URL` },
  );
}

/** False for a URL carrying `user:password@` (fetch refuses to build a request from it). */
function withoutCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username === '' && url.password === '';
  } catch {
    return true; // the protocol check names a URL that does not parse
  }
}

/** Validates a remote server entry. */
export const remoteServerSchema = z.object({
  ...common,
  type: z.enum(['http', 'sse']).optional(),
  url: urlWithProtocols(['http:', 'https:']).refine(withoutCredentials, {
    error:
      'has a user name or password, which fetch will not send: remove them from the URL and send them as a header ("Authorization": "Basic <base64 of user:password>") or as bearerToken',
  }),
  headers: headerMap.optional(),
  bearerToken: bearerToken.optional(),
});

/** Validates a WebSocket server entry. */
export const websocketServerSchema = z.object({
  ...common,
  type: z.literal('websocket'),
  url: urlWithProtocols(['ws:', 'wss:']),
  headers: headerMap.optional(),
  bearerToken: bearerToken.optional(),
});
