import type { RestAuthConfig } from '../config.js';
import { own } from '../records.js';
import { kindOf } from './operation-model.js';
import { CLIENT_HEADERS, HEADER_TOKEN, authHeaderName } from '../check-auth.js';
import type { ImportDiagnostic } from './diagnostics.js';
import { SchemeRefused } from './scheme-refused.js';
import { documentTokenUrl } from './token-url.js';

type Mutable = Record<string, unknown>;

/** Credentials for one security scheme; values may be literals or `${ENV}` templates. */
export interface SchemeCredentials {
  readonly value?: string;
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly tokenUrl?: string;
}

/** What the importer knows about credentials. */
export interface SecurityOptions {
  /** Per scheme name. Unset values default to `${<PREFIX>_<SCHEME>}` style environment variables. */
  readonly credentials?: Readonly<Record<string, SchemeCredentials>>;
  /** Prefix of the default environment variable names (default: the namespace, upper-cased). */
  readonly envPrefix: string;
  /** The operation's base URL: a document's tokenUrl is resolved against it and must share its origin. */
  readonly apiBase?: string;
  /** The base URL of the document's (chosen) server, whose origin a tokenUrl may be on too. */
  readonly documentBase?: string;
  /** Other origins a document's tokenUrl may be on (normalized, from `allowedTokenOrigins`). */
  readonly allowedTokenOrigins?: readonly string[];
  /** Which schemes read each default variable ({@link defaultVariableOwners}). */
  readonly variableOwners?: ReadonlyMap<string, readonly string[]>;
  /** `${<PREFIX>_BASE_URL}` when relative servers go after it: a relative tokenUrl does too. */
  readonly relativeBase?: string;
  /** Told of a scheme that is skipped or whose tokenUrl is checked at each call. */
  readonly notice?: (diagnostic: ImportDiagnostic) => void;
}

/** `${PREFIX_NAME_PART}`: a default variable, upper-cased, runs of other characters as `_`. */
export function defaultName(...parts: string[]): string {
  return `\${${parts
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')}}`;
}

/** Whether the operator passed a token, and nothing for the client-credentials flow. */
function tokenOnly(given: SchemeCredentials): boolean {
  return given.token !== undefined && !given.clientId && !given.clientSecret && !given.tokenUrl;
}

/** The default variables a scheme reads when no credentials are given: suffix and field. */
function defaultSuffixes(scheme: Mutable): Array<[suffix: string[], field: keyof SchemeCredentials]> {
  const type = String(scheme.type);
  const http = type === 'basic' ? 'basic' : type === 'http' ? String(scheme.scheme).toLowerCase() : undefined;
  if (type === 'apiKey') return [[[], 'value']];
  if (http === 'bearer') return [[[], 'token']];
  if (http === 'basic') {
    return [
      [['username'], 'username'],
      [['password'], 'password'],
    ];
  }
  const flows = scheme.flows as Mutable | undefined;
  if (type === 'oauth2' && (scheme.flow === 'application' || flows?.clientCredentials !== undefined)) {
    return [
      [['client_id'], 'clientId'],
      [['client_secret'], 'clientSecret'],
    ];
  }
  return [];
}

/**
 * Which schemes of the document read each default variable (unless `credentials` names it).
 * Scheme names are the document's: `oauth_client_secret` (an API key) would read
 * `${PETS_OAUTH_CLIENT_SECRET}`, the client secret of scheme `oauth`, and send it as a key; a
 * variable read by two schemes stops the import.
 */
export function defaultVariableOwners(
  schemes: Readonly<Record<string, Mutable>>,
  prefix: string,
  credentials: SecurityOptions['credentials'],
): Map<string, string[]> {
  const owners = new Map<string, string[]>();
  const shapes = new Map<string, string>();
  for (const [name, scheme] of Object.entries(schemes)) {
    if (typeof scheme !== 'object' || scheme === null) continue;
    if (scheme.type === 'oauth2' && tokenOnly(own(credentials, name) ?? {})) continue;
    for (const [suffix, field] of defaultSuffixes(scheme)) {
      const given = own(credentials, name);
      if (given !== undefined && Object.hasOwn(given, field) && given[field] !== undefined) continue;
      const variable = defaultName(prefix, name, ...suffix);
      // two schemes that send the value the same way (`BearerAuth` and `bearerAuth`, both HTTP
      // bearer) are one credential spelled twice: neither can send the other's secret elsewhere
      const shape = `${field} ${sendShape(scheme)}`;
      if (shapes.get(variable) === shape) continue;
      shapes.set(variable, shape);
      const list = owners.get(variable);
      if (list) list.push(name);
      else owners.set(variable, [name]);
    }
  }
  return owners;
}

/** How a scheme sends its value, for telling one credential spelled twice from two. */
function sendShape(scheme: Mutable): string {
  if (scheme.type === 'apiKey')
    return `apiKey ${String(scheme.in)} ${scheme.in === 'header' ? String(scheme.name).toLowerCase() : String(scheme.name)}`;
  if (scheme.type === 'http' || scheme.type === 'basic')
    return `http ${String(scheme.type === 'basic' ? 'basic' : scheme.scheme).toLowerCase()}`;
  // OAuth2 client credentials: the token endpoint receives them, so it must be the same too
  return JSON.stringify(scheme);
}

/** Turns one security scheme into an auth entry, or says why it cannot. */
export function authForScheme(
  name: string,
  scheme: Mutable,
  scopes: readonly string[],
  version: '2.0' | '3.0' | '3.1',
  options: SecurityOptions,
): RestAuthConfig | { unsupported: string } {
  const given = own(options.credentials, name) ?? {};
  const prefix = options.envPrefix;
  const envName = (...parts: string[]): string => {
    const variable = defaultName(...parts);
    // owners lists schemes of distinct shapes only: one shape spelled twice is one credential
    const owners = options.variableOwners?.get(variable) ?? [];
    const other = owners.length > 1 ? owners.find((owner) => owner !== name) : undefined;
    if (other !== undefined) {
      throw new SchemeRefused(
        `security schemes "${name}" and "${other}" would both read ${variable}, so one could send the other's secret; name the variables of one of them in credentials.${name} or credentials.${other}`,
      );
    }
    return variable;
  };
  const type = String(scheme.type);
  if (type === 'apiKey') {
    const where = String(scheme.in);
    if (where !== 'header' && where !== 'query' && where !== 'cookie')
      return { unsupported: `apiKey in ${where}` };
    const headerName = String(scheme.name);
    const unsendable =
      where !== 'header'
        ? undefined
        : !HEADER_TOKEN.test(headerName)
          ? 'is not a valid HTTP header name'
          : CLIENT_HEADERS.has(headerName.toLowerCase())
            ? 'is a header the HTTP client sets itself'
            : undefined;
    if (unsendable !== undefined) {
      // no request can carry it: the scheme is skipped, its operations kept
      const reason = `apiKey in header ${JSON.stringify(headerName.slice(0, 100))}, which ${unsendable}`;
      options.notice?.({
        code: 'SECURITY_SCHEME_SKIPPED',
        scheme: name,
        message: `security scheme "${name}" is skipped: its ${reason}`,
        hint: `its operations are imported and go without it (or with another scheme they allow); fix the header name in the document, or send the key with toolDefaults.headers under the name the API really reads`,
      });
      return { unsupported: reason };
    }
    return {
      type: 'apiKey',
      in: where,
      name: String(scheme.name),
      value: given.value ?? envName(prefix, name),
    };
  }
  const httpScheme =
    type === 'basic' ? 'basic' : type === 'http' ? String(scheme.scheme).toLowerCase() : undefined;
  if (httpScheme === 'basic') {
    return {
      type: 'basic',
      username: given.username ?? envName(prefix, name, 'username'),
      password: given.password ?? envName(prefix, name, 'password'),
    };
  }
  if (httpScheme === 'bearer') return { type: 'bearer', token: given.token ?? envName(prefix, name) };
  // a token the operator obtained: sent as it is, and no token endpoint is asked
  if (type === 'oauth2' && tokenOnly(given)) return { type: 'bearer', token: given.token as string };
  if (type === 'oauth2') {
    let tokenUrl: string | undefined;
    if (version === '2.0') {
      if (scheme.flow === 'application' && typeof scheme.tokenUrl === 'string') tokenUrl = scheme.tokenUrl;
    } else {
      const flow = (scheme.flows as Mutable | undefined)?.clientCredentials as Mutable | undefined;
      if (flow && typeof flow.tokenUrl === 'string') tokenUrl = flow.tokenUrl;
    }
    let checkedAtCall = false;
    if (given.tokenUrl) tokenUrl = given.tokenUrl;
    else if (tokenUrl?.includes('${')) {
      // a tool reads ${NAME} in tokenUrl from the environment: the document's host would get it
      return {
        unsupported: `oauth2 whose tokenUrl holds \${...} (pass credentials.${name}.tokenUrl)`,
      };
    } else if (tokenUrl !== undefined) {
      // the document chose where the operator's client secret goes: the API's own site, or an
      // origin the operator allowed; any other is refused by the provider before it is sent
      const judged = documentTokenUrl(name, tokenUrl, {
        apiBase: options.apiBase,
        allowed: options.allowedTokenOrigins ?? [],
        documentBase: options.documentBase,
        relativeBase: options.relativeBase,
      });
      if ('unsupported' in judged) return { unsupported: judged.unsupported };
      tokenUrl = judged.tokenUrl;
      if (!judged.confirmed) {
        checkedAtCall = true;
        options.notice?.({
          code: 'TOKEN_ORIGIN_NOT_ALLOWED',
          scheme: name,
          origin: judged.origin,
          message: `security scheme "${name}" would send your client id and secret to ${judged.origin} (the document's tokenUrl), ${judged.why}; its operations are imported, and each call checks the tokenUrl against the API's origin and is refused (DENIED) before the secret is sent if it is not the API's`,
          hint: `if you trust that token endpoint, pass allowedTokenOrigins: ['${judged.origin}'] (toolplane openapi import --allow-token-origin ${judged.origin}) or add it to allowedTokenOrigins of the tools' auth entry; or pass credentials.${name}.tokenUrl (the token endpoint you mean)`,
        });
      }
    }
    if (tokenUrl) {
      return {
        type: 'oauth2-client-credentials',
        tokenUrl,
        clientId: given.clientId ?? envName(prefix, name, 'client_id'),
        clientSecret: given.clientSecret ?? envName(prefix, name, 'client_secret'),
        ...(scopes.length > 0 ? { scopes } : {}),
        ...(checkedAtCall ? { allowedTokenOrigins: [...(options.allowedTokenOrigins ?? [])] } : {}),
      };
    }
  }
  // other flows (authorization code, implicit, OpenID Connect...) need a user; a token obtained elsewhere still works
  if (given.token || type === 'oauth2' || type === 'openIdConnect' || httpScheme !== undefined) {
    if (given.token) return { type: 'bearer', token: given.token };
    return {
      unsupported: `${type}${httpScheme ? ` ${httpScheme}` : ''} (pass credentials.${name}.token to send a bearer token)`,
    };
  }
  return { unsupported: type };
}

/**
 * Auth entries for an operation's security requirements: the first alternative whose schemes
 * are all supported; an empty alternative (`{}`) makes the credentials optional.
 */
export function authForRequirements(
  requirements: readonly Readonly<Record<string, readonly string[]>>[],
  schemes: Readonly<Record<string, Mutable>>,
  version: '2.0' | '3.0' | '3.1',
  options: SecurityOptions,
): { auth: RestAuthConfig[]; problems: string[] } {
  const problems: string[] = [];
  const isObject = (requirement: unknown): boolean =>
    typeof requirement === 'object' && requirement !== null && !Array.isArray(requirement);
  const optional = requirements.some(
    (requirement) => isObject(requirement) && Object.keys(requirement).length === 0,
  );
  for (const requirement of requirements) {
    if (!isObject(requirement)) {
      // a broken document (`security: [null]`): said, like a scheme that cannot be used
      problems.push('a security requirement is not an object of scheme names');
      continue;
    }
    const names = Object.keys(requirement);
    if (names.length === 0) continue;
    const auth: RestAuthConfig[] = [];
    let usable = true;
    for (const name of names) {
      const scheme = own(schemes, name);
      if (!scheme) {
        problems.push(`security scheme "${name}" is not defined`);
        usable = false;
        break;
      }
      const scopes: unknown = requirement[name] ?? [];
      const listed = Array.isArray(scopes) && scopes.every((scope) => typeof scope === 'string');
      const entry = authForScheme(name, scheme, listed ? scopes : [], version, options);
      if (!listed && 'type' in entry && entry.type === 'oauth2-client-credentials') {
        // the token would be asked for without the scopes the operation needs
        throw new Error(
          `security scheme "${name}" lists the scopes it requires as ${kindOf(scopes)}, not a list of scope names`,
        );
      }
      if ('unsupported' in entry) {
        problems.push(`security scheme "${name}" (${entry.unsupported}) is not supported`);
        usable = false;
        break;
      }
      const header = authHeaderName(entry);
      const clash = auth.findIndex((earlier) => header !== undefined && authHeaderName(earlier) === header);
      if (clash >= 0) {
        // one header carries one credential: HTTP cannot send what this alternative asks
        problems.push(
          `security schemes "${names[clash]}" and "${name}" are required together but both need the ${
            header === 'authorization' ? 'Authorization' : header
          } header, which carries one credential`,
        );
        usable = false;
        break;
      }
      auth.push(optional ? { ...entry, optional: true } : entry);
    }
    if (usable) return { auth, problems: [] };
  }
  if (optional) return { auth: [], problems: [] };
  // one warning per alternative: a document listing 20,000 would bury every other warning
  const shown = problems.slice(0, MAX_SECURITY_PROBLEMS);
  if (problems.length > shown.length)
    shown.push(`and ${problems.length - shown.length} more security alternatives that are not usable either`);
  return { auth: [], problems: shown };
}

/** The most unusable security alternatives one operation's warnings name. */
const MAX_SECURITY_PROBLEMS = 10;

/**
 * A warning for a `security` that is there but no list of requirements (`security: 'key'`, a
 * number, an object), on the operation or, for an operation without its own, on the document:
 * the operation's credentials cannot be read from it.
 */
export function securityShapeWarning(
  operation: { readonly security?: unknown; readonly malformedSecurity?: string },
  documentSecurity: unknown,
  documentUsable: boolean,
): string | undefined {
  if (operation.malformedSecurity !== undefined) {
    return `its security is ${operation.malformedSecurity}, not a list of requirements; ${
      documentUsable ? "the document's security is used" : 'calls go without credentials'
    }`;
  }
  if (operation.security !== undefined || documentSecurity === undefined) return undefined;
  return `the document's security is ${kindOf(documentSecurity)}, not a list of requirements; calls go without credentials`;
}
