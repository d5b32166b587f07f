import {
  type CompiledSchema,
  PROVIDER_SPEC_VERSION,
  type ToolContext,
  type ToolProvider,
  type ToolResult,
  type ToolSpec,
  ToolError,
  compileSchema,
  fail,
  failFromError,
  formatIssues,
} from '@toolplane/core';
import { Agent, type Dispatcher, buildConnector } from 'undici';
import { own } from './records.js';
import { type LookupFunction, checkHostAddresses } from '@toolplane/address-guard';
import { createPublicAgent } from './public-agent.js';
import { authSecrets } from './auth.js';
import { ConnectingSockets } from './connecting.js';
import { OAuthTokenCache } from './oauth-tokens.js';
import type { RestAuthConfig, RestToolConfig } from './config.js';
import { MAX_NESTING, MAX_TIMER_MS, countOption, nestsDeeperThan, timeoutMillis } from './limits.js';
import { type ArgumentPlan, planArguments } from './request-builder.js';
import { sendToolRequest } from './send.js';
import { envNamesIn, templateEnvNames, urlPathEnvNames } from './template.js';
import { checkToolConfig, toolSpecFor } from './tool-spec.js';
import { configurationWarnings } from './provider-warnings.js';

/** Options of {@link createRestProvider}. */
export interface RestProviderOptions {
  /** Tool-name prefix (`[A-Za-z0-9_-]+`); public names are `namespace__tool`. */
  readonly namespace: string;
  /** Tools by local name. */
  readonly tools: Readonly<Record<string, RestToolConfig>>;
  /** Where `${VAR}` comes from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Dispatcher to send through (a proxy agent, a mock for the app's own tests); default: a pooled undici Agent owned by the provider. */
  readonly dispatcher?: Dispatcher;
  /** Connect timeout of the provider's own Agent (default 10 s). */
  readonly connectTimeoutMs?: number;
  /** Longest wait for response headers (default 30 s). */
  readonly headersTimeoutMs?: number;
  /** Longest silence while reading a body (default 30 s). */
  readonly bodyTimeoutMs?: number;
  /** Per-call timeout for tools that set none (default 60 s). */
  readonly timeoutMs?: number;
  /** Response byte cap for tools that set none (default 1 MiB). */
  readonly maxResponseBytes?: number;
  /** Sockets per origin in the pool (default 16). */
  readonly connections?: number;
  /** `user-agent` sent unless a tool sets one. */
  readonly userAgent?: string;
  /**
   * Resolves host names of `publicAddressesOnly` tools (default `dns.lookup`), whose addresses
   * must all be public: at connect time through the provider's own agent, before each request
   * and redirect through a `dispatcher` you pass.
   */
  readonly lookup?: LookupFunction;
  /** Guidance for the system prompt. */
  readonly instructions?: string;
}

/** A provider of REST tools, with what it was built from. */
export interface RestProvider extends ToolProvider {
  readonly kind: 'rest';
  /** Local tool names. */
  readonly toolNames: readonly string[];
  listTools(): readonly ToolSpec[];
  secretValues(): readonly string[];
  /**
   * What keeps calls from working with the environment as it is now: a url's `${VAR}` that is
   * not set (a base URL, saying how to set it), a document's OAuth2 tokenUrl calls refuse to send
   * the client secret to. Read at each call; empty when every tool can be called.
   */
  warnings(): readonly string[];
  close(): Promise<void>;
}

interface ToolEntry {
  readonly name: string;
  readonly config: RestToolConfig;
  readonly plan: ArgumentPlan;
  readonly auth: readonly RestAuthConfig[];
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  compiled?: CompiledSchema;
}

const NAMESPACE_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * REST endpoints as tools. One pooled undici `Agent` per provider (connect, headers and body
 * timeouts), arguments validated against each tool's schema, path arguments percent-encoded so
 * they can never change the host, path or query, redirects followed only to configured hosts.
 *
 * @example
 * const provider = createRestProvider({
 *   namespace: 'weather',
 *   tools: {
 *     current: {
 *       description: 'Current weather of a city.',
 *       method: 'GET',
 *       url: 'https://api.example.com/v1/weather/{city}',
 *       headers: { authorization: 'Bearer ${WEATHER_TOKEN}' },
 *       parametersSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
 *     },
 *   },
 * });
 * const result = await provider.execute('current', { city: 'Athens' }, createToolContext());
 */
export function createRestProvider(options: RestProviderOptions): RestProvider {
  if (typeof options.namespace !== 'string' || !NAMESPACE_PATTERN.test(options.namespace)) {
    throw new ToolError(
      'CONFIG_INVALID',
      `namespace must match [A-Za-z0-9_-]+, got ${JSON.stringify(options.namespace)}`,
    );
  }
  if (typeof options.tools !== 'object' || options.tools === null || Array.isArray(options.tools)) {
    throw new ToolError('CONFIG_INVALID', 'tools must be an object of tool configs by name');
  }
  if (options.lookup !== undefined && typeof options.lookup !== 'function')
    throw new ToolError('CONFIG_INVALID', 'lookup must be a function with the signature of dns.lookup');
  const env = options.env ?? process.env;
  const defaultTimeout = timeoutMillis(options.timeoutMs ?? 60_000, 'timeoutMs');
  const defaultMaxBytes = countOption(options.maxResponseBytes ?? 1024 * 1024, 'maxResponseBytes');
  const connections = countOption(options.connections ?? 16, 'connections', 1);
  const connectTimeout = countOption(options.connectTimeoutMs ?? 10_000, 'connectTimeoutMs', 0, MAX_TIMER_MS);
  const headersTimeout = countOption(options.headersTimeoutMs ?? 30_000, 'headersTimeoutMs', 0, MAX_TIMER_MS);
  const bodyTimeout = countOption(options.bodyTimeoutMs ?? 30_000, 'bodyTimeoutMs', 0, MAX_TIMER_MS);
  const entries = new Map<string, ToolEntry>();
  const specs: ToolSpec[] = [];
  for (const [name, config] of Object.entries(options.tools)) {
    checkToolConfig(name, config);
    const timeoutMs =
      config.streaming?.timeoutMs !== undefined
        ? timeoutMillis(config.streaming.timeoutMs, 'streaming.timeoutMs')
        : config.timeoutMs !== undefined
          ? timeoutMillis(config.timeoutMs, 'timeoutMs')
          : defaultTimeout;
    const auth =
      config.auth === undefined
        ? []
        : Array.isArray(config.auth)
          ? config.auth
          : [config.auth as RestAuthConfig];
    entries.set(name, {
      name,
      config,
      plan: planArguments(config),
      auth,
      timeoutMs,
      maxResponseBytes: config.maxResponseBytes ?? defaultMaxBytes,
    });
    specs.push(toolSpecFor(options.namespace, name, config, timeoutMs));
  }

  const ownsDispatcher = options.dispatcher === undefined;
  const connecting = new ConnectingSockets();
  const dispatcher: Dispatcher =
    options.dispatcher ??
    new Agent({
      connect: connecting.track(buildConnector({ timeout: connectTimeout })),
      connections,
      headersTimeout,
      bodyTimeout,
      keepAliveTimeout: 4_000,
    });
  // tools a public document chose the server of connect through an agent that refuses inward addresses
  const publicDispatcher =
    ownsDispatcher && [...entries.values()].some((entry) => entry.config.publicAddressesOnly === true)
      ? createPublicAgent({
          ...(options.lookup ? { lookup: options.lookup } : {}),
          connecting,
          connections,
          connectTimeout,
          headersTimeout,
          bodyTimeout,
        })
      : undefined;
  const tokens = new OAuthTokenCache(dispatcher);
  // and so do their token requests: a token endpoint on that server would get the client secret
  const publicTokens = [...entries.values()].some((entry) => entry.config.publicAddressesOnly === true)
    ? new OAuthTokenCache(
        publicDispatcher ?? dispatcher,
        undefined,
        undefined,
        publicDispatcher
          ? undefined
          : (hostname, signal) =>
              checkHostAddresses(hostname, { ...(options.lookup ? { lookup: options.lookup } : {}), signal }),
      )
    : undefined;
  const userAgent = options.userAgent ?? 'toolplane-rest-openapi/0.1.0';
  let closed = false;
  /** What stops each call in flight, for close(). */
  const running = new Set<() => void>();
  const onClose = (stop: () => void): (() => void) => {
    running.add(stop);
    return () => running.delete(stop);
  };

  const execute = async (
    name: string,
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<ToolResult> => {
    if (closed) return fail('PROVIDER_UNAVAILABLE', `REST provider ${options.namespace} is closed`);
    const entry = entries.get(name);
    if (!entry) {
      return fail(
        'TOOL_NOT_FOUND',
        `${options.namespace} has no REST tool "${name}"; known tools: ${[...entries.keys()].slice(0, 20).join(', ')}`,
      );
    }
    // serialising (JSON, query styles, templates) recurses: 100,000 levels would overflow the stack
    if (nestsDeeperThan(args, MAX_NESTING))
      return fail(
        'INVALID_ARGUMENTS',
        `the arguments of ${name} nest deeper than ${MAX_NESTING} levels of arrays and objects (or refer to themselves); flatten them`,
      );
    try {
      entry.compiled ??= compileSchema(entry.config.parametersSchema);
      const outcome = entry.compiled.validate(args);
      if (!outcome.valid) {
        // a validation describes its first 1,000 issues and counts the rest in issueCount
        const issueCount = outcome.issueCount ?? outcome.issues.length;
        return fail(
          'INVALID_ARGUMENTS',
          `invalid arguments for ${name}: ${formatIssues(outcome.issues, 5, issueCount)}`,
          { details: { issues: outcome.issues, issueCount } },
        );
      }
      return await sendToolRequest({
        tool: name,
        config: entry.config,
        plan: entry.plan,
        auth: entry.auth,
        args,
        env,
        ctx,
        dispatcher,
        ...(publicDispatcher ? { publicDispatcher } : {}),
        ...(options.lookup ? { lookup: options.lookup } : {}),
        tokens: (entry.config.publicAddressesOnly === true && publicTokens) || tokens,
        userAgent,
        onClose,
        timeoutMs: entry.timeoutMs,
        maxResponseBytes: entry.maxResponseBytes,
        ...(options.headersTimeoutMs === undefined ? {} : { headersTimeoutMs: options.headersTimeoutMs }),
        ...(options.bodyTimeoutMs === undefined ? {} : { bodyTimeoutMs: options.bodyTimeoutMs }),
      });
    } catch (error) {
      return failFromError(error);
    }
  };

  return {
    specificationVersion: PROVIDER_SPEC_VERSION,
    kind: 'rest',
    namespace: options.namespace,
    prefixNames: true,
    toolNames: [...entries.keys()],
    listTools: () => specs,
    execute,
    instructions: () => options.instructions,
    warnings: () => configurationWarnings(entries.values(), env),
    secretValues() {
      const values = new Set<string>();
      for (const entry of entries.values()) {
        for (const value of authSecrets(entry.auth, env)) values.add(value);
        const variables = templateEnvNames(entry.config.bodyTemplate);
        for (const variable of urlPathEnvNames(entry.config.url)) variables.add(variable);
        for (const template of Object.values(entry.config.headers ?? {}))
          for (const variable of envNamesIn(template)) variables.add(variable);
        for (const variable of variables) {
          const value = own(env, variable);
          if (value) values.add(value);
        }
      }
      for (const token of tokens.issued) values.add(token);
      for (const token of publicTokens?.issued ?? []) values.add(token);
      return [...values];
    },
    async close() {
      if (closed) return;
      closed = true;
      // every call in flight ends now, through a dispatcher the application passed too
      for (const stop of [...running]) stop();
      tokens.close();
      publicTokens?.close();
      // destroy, not close: close() would wait for requests still in flight (a hung token
      // endpoint, a never-ending stream), and a closed provider must leave nothing running
      if (ownsDispatcher) await dispatcher.destroy();
      await publicDispatcher?.destroy();
      connecting.destroyAll();
    },
  };
}
