import { z } from 'zod';
import type {
  McpPage,
  McpRequestOptions,
  McpResourceInfo,
  McpSession,
  McpToolDefinition,
} from './session.js';
import { MAX_DEFINITION_DEPTH, isRecord, toolProblem } from '../tools/definition-check.js';
import { nestsDeeperThan } from './nesting.js';
import { toPage } from './sdk-results.js';

/** A `tools/list` result read without judging its tools (they are checked one by one). */
export const LOOSE_TOOLS_PAGE = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/**
 * A result taken as sent, for the provider to check itself: the clients' schemas rebuild every
 * object they parse key by key, and a key named "__proto__" (JSON allows one: a tool's property,
 * a structured result's field) was lost or set the rebuilt object's prototype.
 */
export const UNPARSED = z.unknown();

/** Requests one `tools/list` page with {@link LOOSE_TOOLS_PAGE} (each client's own `request`). */
export type LooseListTools<O> = (
  params: { cursor?: string },
  options: O,
) => Promise<{ readonly tools: readonly unknown[]; readonly nextCursor?: string | undefined }>;

/** Whether a request failed because the client's schema refused the server's result. */
function isInvalidResult(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // the v2 client's result schema walks a value recursively: a definition nested thousands of
  // levels deep overflows the stack there (the loose page below does not walk it)
  if (error instanceof RangeError && /call stack/i.test(error.message)) return true;
  if (Array.isArray((error as { issues?: unknown }).issues)) return true;
  return /malformed result|invalid result/i.test(error.message);
}

/** A page's tools without the ones nested too deep to walk, and why those were left out. */
function withoutDeepTools(tools: readonly unknown[], dropped: string[]): unknown[] {
  if (!tools.some((tool) => nestsDeeperThan(tool, MAX_DEFINITION_DEPTH))) return [...tools];
  return tools.filter((tool, index) => {
    if (!nestsDeeperThan(tool, MAX_DEFINITION_DEPTH)) return true;
    dropped.push(
      `tools/list entry ${index}${nameOf(tool)} nests deeper than ${MAX_DEFINITION_DEPTH} levels: left out (fix the server's definition)`,
    );
    return false;
  });
}

function nameOf(tool: unknown): string {
  return isRecord(tool) && typeof tool.name === 'string' ? ` "${tool.name.slice(0, 100)}"` : '';
}

/** The usable tools of a page the client refused as a whole, and why the others were left out. */
function salvageTools(tools: readonly unknown[]): { kept: McpToolDefinition[]; dropped: string[] } {
  const kept: McpToolDefinition[] = [];
  const dropped: string[] = [];
  tools.forEach((tool, index) => {
    const problem = toolProblem(tool);
    if (problem === undefined) kept.push(tool as McpToolDefinition);
    else {
      dropped.push(
        `tools/list entry ${index}${nameOf(tool)} ${problem}: left out (fix the server's definition)`,
      );
    }
  });
  return { kept, dropped };
}

/**
 * The list, read and ping requests as both SDK clients have them: the same wire shapes, each
 * client with its own request-option type `O`.
 */
interface RequestClient<O> {
  listTools(
    params: { cursor?: string },
    options: O,
  ): Promise<{ readonly tools: readonly unknown[]; readonly nextCursor?: string | undefined }>;
  listResources(
    params: { cursor?: string },
    options: O,
  ): Promise<{ readonly resources: readonly unknown[]; readonly nextCursor?: string | undefined }>;
  readResource(params: { uri: string }, options: O): Promise<{ readonly contents: readonly unknown[] }>;
  ping(options: O): Promise<unknown>;
}

/** Runs one client request with the options of the provider's request (the session's own mapping). */
export type RunRequest<O> = <T>(options: McpRequestOptions, call: (sdk: O) => Promise<T>) => Promise<T>;

/** The session methods that are one request each, over either SDK client. */
export function sdkRequests<O>(
  client: RequestClient<O>,
  run: RunRequest<O>,
  /** Sees every page of tools (`first` for a listing's first page). */
  onToolsPage?: (tools: readonly McpToolDefinition[], first: boolean) => void,
  /** Reads a page the client's schema refused, so its good tools are not lost with the bad. */
  looseListTools?: LooseListTools<O>,
  /**
   * Whether every page is read with `looseListTools` and checked here, not by the client's schema
   * (which loses a property named "__proto__"); false where the client needs its own listing.
   */
  readsRaw: () => boolean = () => looseListTools !== undefined,
): Pick<McpSession, 'listToolsPage' | 'listResourcesPage' | 'readResource' | 'ping'> {
  const cursorParams = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });
  return {
    async listToolsPage(cursor, options): Promise<McpPage<McpToolDefinition>> {
      type Page = { readonly tools: readonly unknown[]; readonly nextCursor?: string | undefined };
      const dropped: string[] = [];
      const loosely = async (read: LooseListTools<O>): Promise<Page> => {
        const loose = await run(options, (sdk) => read(cursorParams(cursor), sdk));
        const salvaged = salvageTools(loose.tools);
        for (const reason of salvaged.dropped) dropped.push(reason);
        return { tools: salvaged.kept, nextCursor: loose.nextCursor };
      };
      let page: Page;
      if (looseListTools && readsRaw()) page = await loosely(looseListTools);
      else {
        try {
          page = await run(options, (sdk) => client.listTools(cursorParams(cursor), sdk));
        } catch (error) {
          if (!looseListTools || !isInvalidResult(error)) throw error;
          page = await loosely(looseListTools);
        }
      }
      const tools = withoutDeepTools(page.tools, dropped) as McpToolDefinition[];
      onToolsPage?.(tools, cursor === undefined);
      const result = toPage<McpToolDefinition>(tools, page.nextCursor);
      return dropped.length > 0 ? { ...result, dropped } : result;
    },
    async listResourcesPage(cursor, options): Promise<McpPage<McpResourceInfo>> {
      const page = await run(options, (sdk) => client.listResources(cursorParams(cursor), sdk));
      return toPage<McpResourceInfo>(page.resources, page.nextCursor);
    },
    async readResource(uri, options) {
      return (await run(options, (sdk) => client.readResource({ uri }, sdk))).contents;
    },
    async ping(options) {
      await run(options, (sdk) => client.ping(sdk));
    },
  };
}
