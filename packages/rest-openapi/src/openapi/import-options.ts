import type { RestToolConfig } from '../config.js';
import type { ImportDiagnostic } from './diagnostics.js';
import type { OperationFilter } from './filter.js';
import type { LoadOptions } from './load.js';
import type { SchemeCredentials } from './security.js';
import type { ServerChoice } from './servers.js';

/** Options of `importOpenApi`. */
export interface ImportOptions extends ServerChoice, LoadOptions {
  /** Used for default environment variable names of credentials (`PETSTORE_API_KEY`). */
  readonly namespace?: string;
  /** Keep only operations matching every criterion given. */
  readonly include?: OperationFilter;
  /** Drop operations matching any criterion given. */
  readonly exclude?: OperationFilter;
  /** Credentials per security scheme name; values may be `${ENV}` templates. */
  readonly credentials?: Readonly<Record<string, SchemeCredentials>>;
  /**
   * Origins (`https://auth.example.com`) besides the API's own (and its registrable domain)
   * where a document's OAuth2 `tokenUrl` may send your client id and secret; calls whose
   * tokenUrl is on any other are refused with `DENIED` before the secret is sent.
   */
  readonly allowedTokenOrigins?: readonly string[];
  /** Prefix of default credential variables (default: namespace upper-cased, or `API`). */
  readonly envPrefix?: string;
  /** Longest tool description (default 1024 characters). */
  readonly maxDescriptionLength?: number;
  /** Longest parameter or schema description (default 300 characters). */
  readonly maxParameterDescriptionLength?: number;
  /** Import deprecated operations (default true; their descriptions say so). */
  readonly includeDeprecated?: boolean;
  /** Stop at the first operation that cannot be imported instead of skipping it with a warning. */
  readonly strict?: boolean;
  /** Settings added to every tool (timeout, queue, cache, headers, maxResponseBytes...). */
  readonly toolDefaults?: Partial<
    Omit<RestToolConfig, 'description' | 'method' | 'url' | 'parametersSchema'>
  >;
}

/** What an import produced. */
export interface ImportResult {
  readonly tools: Record<string, RestToolConfig>;
  /** Operations skipped or renamed, and why; the diagnostics' lines first. */
  readonly warnings: string[];
  /** What the operator must act on, with stable codes (also lines of `warnings`). */
  readonly diagnostics: readonly ImportDiagnostic[];
  readonly info: {
    readonly title?: string;
    readonly version?: string;
    readonly specification: '2.0' | '3.0' | '3.1';
  };
}
