import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListResourcesRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpUpstream, PassthroughRequestOptions } from '@toolplane/mcp-provider';
import type { Scrubber } from '@toolplane/scrubber';
import type { GatewayNames } from './names.js';
import { upstreamCapabilities } from './upstreams.js';

/** Pages read from one upstream for one list, at most. */
const MAX_PAGES = 50;
/** URIs a client may be subscribed to, at most. */
const MAX_SUBSCRIPTIONS = 1000;

type Extra = {
  signal: AbortSignal;
  sendNotification: (notification: never) => Promise<void>;
};
type Params = { _meta?: { progressToken?: string | number } } & Record<string, unknown>;

class PassthroughError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The options of an upstream request for the client's request: its cancellation and progress. */
function optionsOf(params: Params | undefined, extra: Extra): PassthroughRequestOptions {
  const token = params?._meta?.progressToken;
  return {
    signal: extra.signal,
    ...(token === undefined
      ? {}
      : {
          onProgress: (progress) => {
            void extra
              .sendNotification({
                method: 'notifications/progress',
                params: { progressToken: token, ...progress },
              } as never)
              .catch(() => {});
          },
        }),
  };
}

function withoutMeta(params: Params | undefined): Record<string, unknown> {
  const { _meta: _, ...rest } = params ?? {};
  return rest;
}

/**
 * Passes resources, prompts, completion and logging of every upstream server through `server`
 * (see docs/gateway.md): prompts named as tools are, resource URIs unchanged (the first server in
 * the config that lists a URI serves it), results scrubbed as tool results are, resource updates
 * forwarded only for URIs this client subscribed to. Returns what stops the notifications.
 */
export function installPassthrough(
  server: Server,
  upstreams: readonly McpUpstream[],
  names: GatewayNames,
  scrubber: Scrubber | undefined,
): () => void {
  const caps = upstreamCapabilities(upstreams);
  const scrub = <T>(value: T): T => (scrubber ? scrubber.scrubValue(value) : value);
  const byName = new Map(upstreams.map((upstream) => [upstream.server, upstream]));
  const owners = new Map<string, McpUpstream>();
  const templates: { prefix: string; upstream: McpUpstream }[] = [];
  const subscribed = new Set<string>();
  const having = (key: string): McpUpstream[] =>
    upstreams.filter((upstream) => upstream.capabilities()[key] !== undefined);

  async function listAll(
    upstream: McpUpstream,
    method: string,
    key: string,
    extra: Extra,
  ): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = (await upstream.request(method, cursor ? { cursor } : {}, {
        signal: extra.signal,
      })) as Record<string, unknown>;
      const list = Array.isArray(result?.[key]) ? (result[key] as Record<string, unknown>[]) : [];
      items.push(...list.filter((item) => typeof item === 'object' && item !== null));
      cursor = typeof result?.nextCursor === 'string' ? result.nextCursor : undefined;
      if (!cursor) break;
    }
    return items;
  }

  function ownerOf(uri: string): McpUpstream {
    const owner = owners.get(uri) ?? templates.find((entry) => uri.startsWith(entry.prefix))?.upstream;
    if (owner) return owner;
    const candidates = having('resources');
    if (candidates.length === 1) return candidates[0] as McpUpstream;
    throw new PassthroughError(
      -32002,
      `resource ${uri.slice(0, 200)} is not one the gateway's servers listed: list resources (or templates) first`,
    );
  }

  if (caps.resources) {
    server.setRequestHandler(ListResourcesRequestSchema, async (_request, extra) => {
      const resources: Record<string, unknown>[] = [];
      for (const upstream of having('resources'))
        for (const resource of await listAll(upstream, 'resources/list', 'resources', extra as Extra)) {
          const uri = String(resource.uri);
          if (owners.has(uri) && owners.get(uri) !== upstream) continue;
          owners.set(uri, upstream);
          resources.push(resource);
        }
      return scrub({ resources }) as never;
    });
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async (_request, extra) => {
      const resourceTemplates: Record<string, unknown>[] = [];
      templates.length = 0;
      for (const upstream of having('resources'))
        for (const template of await listAll(
          upstream,
          'resources/templates/list',
          'resourceTemplates',
          extra as Extra,
        )) {
          const prefix = String(template.uriTemplate).split('{')[0] ?? '';
          if (prefix) templates.push({ prefix, upstream });
          resourceTemplates.push(template);
        }
      return scrub({ resourceTemplates }) as never;
    });
    server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
      const params = request.params as Params;
      const upstream = ownerOf(String(params.uri));
      return scrub(
        await upstream.request('resources/read', withoutMeta(params), optionsOf(params, extra as Extra)),
      ) as never;
    });
    if (caps.subscribe) {
      server.setRequestHandler(SubscribeRequestSchema, async (request, extra) => {
        const uri = String(request.params.uri);
        if (!subscribed.has(uri) && subscribed.size >= MAX_SUBSCRIPTIONS)
          throw new PassthroughError(
            -32602,
            `at most ${MAX_SUBSCRIPTIONS} subscriptions: unsubscribe from one first`,
          );
        await ownerOf(uri).request('resources/subscribe', { uri }, { signal: extra.signal });
        subscribed.add(uri);
        return {};
      });
      server.setRequestHandler(UnsubscribeRequestSchema, async (request, extra) => {
        const uri = String(request.params.uri);
        subscribed.delete(uri);
        await ownerOf(uri).request('resources/unsubscribe', { uri }, { signal: extra.signal });
        return {};
      });
    }
  }
  if (caps.prompts) {
    server.setRequestHandler(ListPromptsRequestSchema, async (_request, extra) => {
      const prompts: Record<string, unknown>[] = [];
      for (const upstream of having('prompts'))
        for (const prompt of await listAll(upstream, 'prompts/list', 'prompts', extra as Extra))
          prompts.push({ ...prompt, name: names.outward(upstream.server, String(prompt.name)) });
      return scrub({ prompts }) as never;
    });
    server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
      const params = request.params as Params & { name: string };
      const target = names.inward(params.name);
      const upstream = target && byName.get(target.server);
      if (!target || !upstream)
        throw new PassthroughError(
          -32602,
          `no prompt named ${params.name.slice(0, 200)}: list prompts to see them`,
        );
      return scrub(
        await upstream.request(
          'prompts/get',
          { ...withoutMeta(params), name: target.name },
          optionsOf(params, extra as Extra),
        ),
      ) as never;
    });
  }
  if (caps.completions) {
    server.setRequestHandler(CompleteRequestSchema, async (request, extra) => {
      const params = request.params as Params & { ref: { type: string; name?: string; uri?: string } };
      const ref = params.ref;
      let upstream: McpUpstream | undefined;
      let forwarded = params.ref;
      if (ref.type === 'ref/prompt') {
        const target = names.inward(String(ref.name));
        upstream = target && byName.get(target.server);
        if (target) forwarded = { ...ref, name: target.name };
      } else upstream = ownerOf(String(ref.uri));
      if (!upstream)
        throw new PassthroughError(
          -32602,
          'completion for a prompt or resource no server of the gateway has',
        );
      return (await upstream.request(
        'completion/complete',
        { ...withoutMeta(params), ref: forwarded },
        optionsOf(params, extra as Extra),
      )) as never;
    });
  }
  if (caps.logging) {
    server.setRequestHandler(SetLevelRequestSchema, async (request, extra) => {
      await Promise.all(
        having('logging').map((upstream) =>
          upstream.request('logging/setLevel', { level: request.params.level }, { signal: extra.signal }),
        ),
      );
      return {};
    });
  }
  const stops = upstreams.map((upstream) =>
    upstream.onNotification((notification) => {
      const send = (method: string, params?: Record<string, unknown>): void => {
        void server.notification({ method, ...(params ? { params } : {}) } as never).catch(() => {});
      };
      switch (notification.method) {
        case 'notifications/resources/updated': {
          const uri = String(notification.params?.uri);
          // updates for what this client did not subscribe to are dropped
          if (subscribed.has(uri) && ownerOf(uri) === upstream) send(notification.method, { uri });
          return;
        }
        case 'notifications/resources/list_changed':
        case 'notifications/prompts/list_changed':
          if (notification.method.includes('resources') ? caps.resources : caps.prompts)
            send(notification.method);
          return;
        case 'notifications/message': {
          if (!caps.logging) return;
          const params = notification.params ?? {};
          const logger =
            typeof params.logger === 'string' ? `${upstream.server}/${params.logger}` : upstream.server;
          send(notification.method, scrub({ ...params, logger }));
          return;
        }
        default:
          return;
      }
    }),
  );
  return () => {
    for (const stop of stops) stop();
  };
}
