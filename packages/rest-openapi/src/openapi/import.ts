import { ToolError, errorMessage, sanitizeToolName } from '@toolplane/core';
import type { RestToolConfig } from '../config.js';
import { setOwn } from '../records.js';
import { checkToolConfig } from '../tool-spec.js';
import { splitToolUrl } from '../url-template.js';
import { checkCredentials, checkImportOptions, checkServerChoice } from './check-options.js';
import { bodyBinding, describeFiles } from './file-fields.js';
import { excludedBy, matchesFilter } from './filter.js';
import type { ImportOptions, ImportResult } from './import-options.js';
import { type OpenApiSource, loadDocument } from './load.js';
import type { NormalizedOperation } from './operation-model.js';
import { readOperations } from './operations.js';
import { reconcilePathParameters } from './path-parameters.js';
import { publicDocumentOrigin } from './public-document.js';
import { createRefResolver } from './resolver.js';
import { MAX_ANNOTATION_NESTING, MAX_ENUM_VALUES, SchemaConverter } from './schema.js';
import { authForRequirements, defaultName, defaultVariableOwners, securityShapeWarning } from './security.js';
import { type ImportDiagnostic, diagnosticWarning } from './diagnostics.js';
import { baseUrlDiagnostic, emptyImportDiagnostic } from './import-diagnostics.js';
import { checkServerVariables } from './server-variables.js';
import {
  baseUrl2,
  baseUrl3,
  checkDocumentServer,
  checkServersList,
  checkServerAddress,
  checkSwaggerBase,
  type ResolvedChoice,
} from './servers.js';
import { operationArguments } from './operation-arguments.js';
import { describeOperation, operationToolNames } from './operation-names.js';
import { SchemeRefused } from './scheme-refused.js';
import { checkAllowedTokenOrigins } from './token-url.js';
import { collapseWarnings } from './warnings.js';

export type { ImportOptions, ImportResult };

type Mutable = Record<string, unknown>;

/** The base URL of the document's (chosen) server, or undefined when it has none that works. */
function documentBaseUrl(
  document: Record<string, unknown>,
  version: '2.0' | '3.0' | '3.1',
  documentServers: readonly Mutable[],
  options: ResolvedChoice,
  location: string | undefined,
): string | undefined {
  try {
    return version === '2.0'
      ? baseUrl2(document, options, location)
      : baseUrl3(documentServers, undefined, options, location);
  } catch {
    return undefined;
  }
}

/**
 * Imports an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML, from a file, URL, text or
 * object) as REST tool configs: one tool per operation, named from its operationId (or method
 * and path), arguments for its path/query/header/cookie parameters plus `body`, schemas
 * normalized to draft-07, credentials as `${ENV}` templates.
 *
 * @example
 * const { tools, warnings } = await importOpenApi('./petstore.yaml', { namespace: 'petstore', include: { tags: ['pet'] } });
 * const provider = createRestProvider({ namespace: 'petstore', tools });
 */
export async function importOpenApi(
  source: OpenApiSource,
  options: ImportOptions = {},
): Promise<ImportResult> {
  checkImportOptions(options);
  const allowedTokenOrigins = checkAllowedTokenOrigins(options.allowedTokenOrigins);
  const loaded = await loadDocument(source, options);
  const { document, version, location } = loaded;
  // tools whose server a public document chose connect only to public addresses
  const publicOrigin = options.baseUrl ? undefined : await publicDocumentOrigin(loaded, options.lookup);
  const resolver = createRefResolver(document);
  const converter = new SchemaConverter(resolver, version, options.maxParameterDescriptionLength ?? 300);
  const warnings: string[] = [];
  const { operations, skipped } = readOperations(document, version, resolver);
  const problem = (label: string, reason: string): void => {
    if (options.strict) throw new ToolError('CONFIG_INVALID', `${label}: ${reason}`);
    warnings.push(`skipped ${label}: ${reason}`);
  };
  for (const skip of skipped) problem(skip.label, skip.reason);

  const components = (document.components ?? {}) as Mutable;
  const schemes = (version === '2.0' ? document.securityDefinitions : components.securitySchemes) ?? {};
  const defaultSecurity = Array.isArray(document.security)
    ? (document.security as NormalizedOperation['security'] & object)
    : [];
  const malformedDefault = document.security !== undefined && !Array.isArray(document.security);
  const documentServers = Array.isArray(document.servers) ? (document.servers as Mutable[]) : [];
  if (version !== '2.0') checkServersList(document.servers, options.baseUrl);
  if (version !== '2.0' && !options.baseUrl) checkServerChoice(options.server, documentServers);
  if (!options.baseUrl) {
    const allServers = [...documentServers, ...operations.flatMap((operation) => operation.servers ?? [])];
    checkServerVariables(options.serverVariables, version === '2.0' ? [] : allServers);
    if (version !== '2.0') checkDocumentServer(documentServers, options);
    else checkSwaggerBase(document);
  }
  checkCredentials(options.credentials, schemes as Record<string, unknown>);
  const envPrefix = options.envPrefix ?? (options.namespace ?? 'api').toUpperCase();
  // relative servers of a document from no URL: the tools read the API's origin from here
  const relativeBase =
    options.baseUrl || (location !== undefined && /^https?:\/\//i.test(location))
      ? undefined
      : defaultName(envPrefix, 'base_url');
  const choice: ResolvedChoice = relativeBase === undefined ? options : { ...options, relativeBase };
  const documentBase = options.baseUrl
    ? undefined
    : documentBaseUrl(document, version, documentServers, choice, location);
  const variableOwners = defaultVariableOwners(
    schemes as Record<string, Mutable>,
    envPrefix,
    options.credentials,
  );
  const diagnostics: ImportDiagnostic[] = [];
  let relativeServer: string | undefined;
  const schemeNotices = new Map<string, { diagnostic: ImportDiagnostic; tools: string[] }>();

  const selected = operations.filter(
    (operation) =>
      (options.includeDeprecated !== false || !operation.deprecated) &&
      (!options.include || matchesFilter(operation, options.include)) &&
      (!options.exclude || !excludedBy(operation, options.exclude)),
  );

  const { wanted, names } = operationToolNames(selected, options.strict === true, warnings);

  const tools: Record<string, RestToolConfig> = {};
  const pinnedHeaders = new Set(
    Object.keys(options.toolDefaults?.headers ?? {}).map((name) => name.toLowerCase()),
  );
  for (const [index, selectedOperation] of selected.entries()) {
    const name = names[index] as string;
    const { parameters: reconciled, notes: pathNotes } = reconcilePathParameters(selectedOperation);
    const notes = [...pathNotes, ...(selectedOperation.notes ?? [])];
    // a header toolDefaults pins is the operator's: the model is not asked for it as well
    const kept = reconciled.filter((parameter) => {
      const pinned = parameter.binding.in === 'header' && pinnedHeaders.has(parameter.name.toLowerCase());
      if (pinned)
        notes.push(
          `header parameter ${parameter.name} is set by toolDefaults.headers; it is not an argument`,
        );
      return !pinned;
    });
    const operation = { ...selectedOperation, parameters: kept };
    for (const note of notes) warnings.push(`${operation.label}: ${note}`);
    if (name !== sanitizeToolName(wanted[index] as string)) {
      warnings.push(
        `${operation.label}: the name ${sanitizeToolName(wanted[index] as string)} was already taken; named it ${name}`,
      );
    }
    try {
      // ReadMe-style documents add `#fragment` to paths to tell operations apart
      const path = operation.path.split('#')[0] as string;
      if (path.includes('${')) {
        // a tool reads ${NAME} in its url from the environment: the document's server would get it
        throw new ToolError(
          'CONFIG_INVALID',
          'the path holds ${...}, which a tool would read from the environment; only configuration (baseUrl, credentials, toolDefaults) may use ${VAR}',
        );
      }
      const base =
        version === '2.0'
          ? baseUrl2(document, choice, location)
          : baseUrl3(documentServers, operation.servers, choice, location);
      if (relativeBase !== undefined && base.startsWith(relativeBase))
        relativeServer ??= base.slice(relativeBase.length) || '/';
      if (relativeBase !== undefined && base.startsWith(relativeBase) && variableOwners.has(relativeBase))
        throw new SchemeRefused(
          `the document's servers are relative, so its tools would read the API's origin from ${relativeBase}, which security scheme "${variableOwners.get(relativeBase)?.[0]}" reads as its credential; pass baseUrl, or name that scheme's variables in credentials`,
        );
      checkServerAddress(base, publicOrigin, operation.label);
      const { parametersSchema, bindings, bodyName } = operationArguments(
        operation,
        converter,
        options.maxParameterDescriptionLength ?? 300,
      );
      const requirements = operation.security ?? defaultSecurity;
      const shapeWarning = securityShapeWarning(
        operation,
        malformedDefault ? document.security : undefined,
        defaultSecurity.length > 0,
      );
      if (shapeWarning) warnings.push(`${operation.label}: ${shapeWarning}`);
      const noticed: ImportDiagnostic[] = [];
      const { auth, problems } = authForRequirements(
        requirements,
        schemes as Record<string, Mutable>,
        version,
        {
          envPrefix,
          apiBase: base,
          ...(documentBase === undefined ? {} : { documentBase }),
          allowedTokenOrigins,
          variableOwners,
          ...(relativeBase === undefined ? {} : { relativeBase }),
          notice: (diagnostic) => noticed.push(diagnostic),
          ...(options.credentials ? { credentials: options.credentials } : {}),
        },
      );
      for (const text of problems) warnings.push(`${operation.label}: ${text}; calls go without credentials`);
      const body = operation.body ? bodyBinding(operation.body, bodyName, parametersSchema) : undefined;
      const tool: RestToolConfig = {
        ...options.toolDefaults,
        description: describeOperation(operation, options.maxDescriptionLength ?? 1024),
        method: operation.method,
        url: `${base}${path}`,
        parametersSchema: body?.files
          ? describeFiles(parametersSchema, bodyName, body.files)
          : parametersSchema,
        ...(Object.keys(bindings).length > 0 ? { parameters: bindings } : {}),
        ...(body ? { body } : {}),
        ...(auth.length > 0
          ? { auth: auth.length === 1 ? (auth[0] as RestToolConfig['auth'] & object) : auth }
          : {}),
        operationId: operation.operationId ?? (wanted[index] as string),
        ...(operation.tags.length > 0 ? { tags: operation.tags } : {}),
        ...(publicOrigin === undefined ? {} : { publicAddressesOnly: true }),
      };
      // what the provider would refuse (a schema nesting too deeply, a header name that is no
      // HTTP token) is skipped here, with the reason, so the other operations still serve
      checkToolConfig(name, tool);
      // the url is final unless it waits for ${VAR} (baseUrl): check it as a call would
      if (!tool.url.includes('${')) splitToolUrl(tool.url, name);
      setOwn(tools, name, tool);
      for (const diagnostic of noticed) {
        const key = `${diagnostic.code} ${diagnostic.scheme}`;
        const seen = schemeNotices.get(key);
        if (seen) seen.tools.push(name);
        else schemeNotices.set(key, { diagnostic, tools: [name] });
      }
    } catch (error) {
      if (error instanceof SchemeRefused) throw error;
      problem(operation.label, errorMessage(error));
    }
  }
  if (converter.droppedEnums > 0) {
    const count = converter.droppedEnums;
    warnings.push(
      `${count} enum${count === 1 ? '' : 's'} of more than ${MAX_ENUM_VALUES} values ${count === 1 ? 'was' : 'were'} left out of the input schemas (the API still checks the value); the descriptions say how many values each allows`,
    );
  }
  if (converter.droppedAnnotations > 0) {
    const count = converter.droppedAnnotations;
    warnings.push(
      `${count} example${count === 1 ? '' : 's'} or default${count === 1 ? '' : 's'} nesting deeper than ${MAX_ANNOTATION_NESTING} levels ${count === 1 ? 'was' : 'were'} left out of the input schemas`,
    );
  }
  for (const { diagnostic, tools: concerned } of schemeNotices.values())
    diagnostics.push({ ...diagnostic, tools: concerned });
  const based =
    relativeBase === undefined
      ? []
      : Object.keys(tools).filter((name) => tools[name]?.url.startsWith(relativeBase));
  if (relativeBase !== undefined && based.length > 0)
    diagnostics.push(baseUrlDiagnostic(relativeBase, relativeServer ?? '/', based));
  const empty =
    Object.keys(tools).length === 0
      ? emptyImportDiagnostic(document, operations.length, selected.length)
      : undefined;
  if (empty) diagnostics.push(empty);
  const info = (document.info ?? {}) as Mutable;
  return {
    tools,
    // what needs the operator first: it is what a program that prints one warning shows
    warnings: [...diagnostics.map(diagnosticWarning), ...collapseWarnings(warnings)],
    diagnostics,
    info: {
      ...(typeof info.title === 'string' ? { title: info.title } : {}),
      ...(typeof info.version === 'string' ? { version: info.version } : {}),
      specification: version,
    },
  };
}
