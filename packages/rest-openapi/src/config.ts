import type { JsonSchema, SideEffect, ToolAnnotations } from '@toolplane/core';

/** HTTP methods a REST tool may use. */
export type RestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** A duration in milliseconds, or a string such as `"30s"`, `"5m"`, `"250ms"`, `"1h"`. */
export type Duration = number | string;

/** Where one argument goes in the request, with the OpenAPI serialization rules. */
export interface RestParameterBinding {
  readonly in: 'path' | 'query' | 'header' | 'cookie';
  /** Name on the wire when it differs from the argument name. */
  readonly name?: string;
  /** OpenAPI style: path `simple`/`label`/`matrix`, query `form`/`spaceDelimited`/`pipeDelimited`/`deepObject`. */
  readonly style?: 'simple' | 'label' | 'matrix' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  readonly explode?: boolean;
  /** Query only: keep RFC 3986 reserved characters, except the ones that would split the query (`&`, `=`, `#`, `+`). */
  readonly allowReserved?: boolean;
  /** Serialize the value as JSON text (OpenAPI `content: application/json` parameters). */
  readonly json?: boolean;
  /**
   * Swagger 2.0's `collectionFormat`: a list sent as one value joined by `,` (`csv`), a space
   * (`ssv`), a tab (`tsv`) or `|` (`pipes`), instead of the style's separator.
   */
  readonly collectionFormat?: CollectionFormat;
}

/** How a list is joined into one value (Swagger 2.0's `collectionFormat`, `multi` being the repeated fields of `style: form`). */
export type CollectionFormat = 'csv' | 'ssv' | 'tsv' | 'pipes';

/** The request body of a tool: one argument sent with a content type. */
export interface RestBodyBinding {
  /** Argument holding the body (`body` for imported operations). */
  readonly argument: string;
  /** `application/json` (and `+json`), `application/x-www-form-urlencoded`, `multipart/form-data`, `text/*`, or anything sent as text. */
  readonly contentType: string;
  /**
   * Fields of a `multipart/form-data` body sent as files (a part with a filename), by field name;
   * the importer sets it for fields whose schema is `format: binary` or `base64`, has a
   * `contentMediaType` or `contentEncoding`, or is a Swagger `type: file` (and lists of them),
   * also behind a `$ref`, in an `allOf` member or in every non-null `anyOf`/`oneOf` branch.
   */
  readonly files?: Readonly<Record<string, RestFileField>>;
  /**
   * Fields of a form or multipart body whose lists are sent as one field joined by
   * {@link CollectionFormat} (Swagger 2.0 form fields), instead of one field per item.
   */
  readonly collectionFormats?: Readonly<Record<string, CollectionFormat>>;
}

/** How one file field of a multipart body is sent. */
export interface RestFileField {
  /** Another field of the body whose value is the file's name (`filename`); its last path part is sent. */
  readonly filenameField?: string;
  /** The part's content type (default: a data: URL's, else `application/octet-stream`). */
  readonly contentType?: string;
  /**
   * `base64`: the field's text is the base64 of the file's bytes, which are sent decoded (the
   * importer sets it for `contentEncoding: base64`, `format: byte` and `format: base64`). Any file
   * field also takes a `data:<type>;base64,<bytes>` URL, sent as its decoded bytes; other text is
   * sent as its UTF-8 bytes.
   */
  readonly encoding?: 'base64';
}

/** Credentials sent with every call of a tool. String values may use `${ENV_VAR}`. */
export type RestAuthConfig =
  | { readonly type: 'bearer'; readonly token: string; readonly optional?: boolean }
  | {
      readonly type: 'basic';
      readonly username: string;
      readonly password: string;
      readonly optional?: boolean;
    }
  | {
      readonly type: 'apiKey';
      readonly in: 'header' | 'query' | 'cookie';
      readonly name: string;
      readonly value: string;
      readonly optional?: boolean;
    }
  | {
      readonly type: 'oauth2-client-credentials';
      readonly tokenUrl: string;
      readonly clientId: string;
      readonly clientSecret: string;
      readonly scopes?: readonly string[];
      readonly audience?: string;
      readonly optional?: boolean;
      /**
       * Set (the importer sets it for a tokenUrl an OpenAPI document chose on an origin it could
       * not confirm as the API's): the client id and secret go only to a tokenUrl on the origin the
       * call goes to, on its registrable domain (by the Public Suffix List, https not downgraded)
       * or on one of these origins; any other call is `DENIED` before the secret is sent.
       */
      readonly allowedTokenOrigins?: readonly string[];
    };

/** JSON streaming (newline-delimited JSON or server-sent-event style lines). */
export interface RestStreamingConfig {
  readonly mode: 'json-stream';
  /** Prefix stripped from each line before parsing (`data: ` for SSE-style streams); lines without it are skipped. */
  readonly linePrefix?: string;
  /** Field whose value says what an event is. */
  readonly discriminatorField: string;
  /** Discriminator value of the last event. */
  readonly doneValue: string;
  /** Field of the done event holding the whole answer; without it, tokens are concatenated. */
  readonly answerField?: string;
  /** Discriminator value of token events. */
  readonly tokenValue?: string;
  /** Field of a token event holding the text to append. */
  readonly tokenField?: string;
  /** Longest the whole stream may take (default 5 minutes). */
  readonly timeoutMs?: Duration;
  /** Most bytes read from the stream (default: the tool's `maxResponseBytes`). */
  readonly maxBytes?: number;
}

/**
 * One REST endpoint as a tool. The URL path may hold `{name}` placeholders (path arguments,
 * percent-encoded); `${ENV_VAR}` works in the URL, headers, auth and body template; `{{name}}`
 * puts an argument into a header value or the body template.
 *
 * @example
 * const weather: RestToolConfig = {
 *   description: 'Current weather of a city.',
 *   method: 'GET',
 *   url: 'https://api.example.com/v1/weather/{city}',
 *   headers: { authorization: 'Bearer ${WEATHER_TOKEN}' },
 *   parametersSchema: { type: 'object', properties: { city: { type: 'string' }, units: { type: 'string' } }, required: ['city'] },
 * };
 */
export interface RestToolConfig {
  readonly description: string;
  readonly method: RestMethod;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Named queue the calls wait in. */
  readonly queue?: string;
  /** Response cache time-to-live. */
  readonly cache?: Duration;
  /** Per-call timeout (the whole call, redirects included). */
  readonly timeoutMs?: Duration;
  /** JSON Schema of the arguments (draft-07). */
  readonly parametersSchema: JsonSchema;
  /** Body: any JSON value; a string that is exactly `{{name}}` becomes the argument's value, `{{name}}` inside text is interpolated. */
  readonly bodyTemplate?: unknown;
  readonly streaming?: RestStreamingConfig;
  /** Query arrays and objects are expanded (`a=1&a=2`, `f[x]=1`) instead of sent as JSON text. */
  readonly hasComplexQueryParams?: boolean;
  /** Arguments sent in the query even for methods that have a body. */
  readonly queryParamNames?: readonly string[];
  /** Explicit placement of arguments (the importer writes these); overrides the defaults above. */
  readonly parameters?: Readonly<Record<string, RestParameterBinding>>;
  /** Explicit body placement (the importer writes this). */
  readonly body?: RestBodyBinding;
  /** Credentials; all entries are applied. */
  readonly auth?: RestAuthConfig | readonly RestAuthConfig[];
  /** Most response bytes read (default 1 MiB). */
  readonly maxResponseBytes?: number;
  /** Redirects followed (default 5; 0 disables). */
  readonly maxRedirects?: number;
  /** Hosts (`api.example.com` or `*.example.com`) a redirect may lead to besides the tool's own host. */
  readonly allowedRedirectHosts?: readonly string[];
  /**
   * Connect only to public addresses, judged by what the host resolves to when connecting (and
   * at every redirect): the importer sets it for tools whose server a document from a public
   * origin chose. A local or private address is `DENIED`.
   */
  readonly publicAddressesOnly?: boolean;
  readonly sideEffect?: SideEffect;
  readonly annotations?: ToolAnnotations;
  /** The remote name (OpenAPI operationId) used in `meta.definitionHash`; defaults to the tool key. */
  readonly operationId?: string;
  readonly tags?: readonly string[];
}
