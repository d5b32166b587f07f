import type {
  McpPage,
  McpRequestOptions,
  McpResourceInfo,
  McpSession,
  McpToolDefinition,
} from './session.js';
import { toPage } from './sdk-results.js';

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
): Pick<McpSession, 'listToolsPage' | 'listResourcesPage' | 'readResource' | 'ping'> {
  const cursorParams = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });
  return {
    async listToolsPage(cursor, options): Promise<McpPage<McpToolDefinition>> {
      const page = await run(options, (sdk) => client.listTools(cursorParams(cursor), sdk));
      onToolsPage?.(page.tools as McpToolDefinition[], cursor === undefined);
      return toPage<McpToolDefinition>(page.tools, page.nextCursor);
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
