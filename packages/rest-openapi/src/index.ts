// @toolplane/rest-openapi: everything exported here is public API.
export type {
  CollectionFormat,
  Duration,
  RestAuthConfig,
  RestBodyBinding,
  RestFileField,
  RestMethod,
  RestParameterBinding,
  RestStreamingConfig,
  RestToolConfig,
} from './config.js';
export type { LookupFunction } from '@toolplane/address-guard';
export { parseDuration } from './duration.js';
export { encodeStrict } from './encoding.js';
export type { ImportDiagnostic, ImportDiagnosticCode } from './openapi/diagnostics.js';
export type { OperationFilter } from './openapi/filter.js';
export { type ImportOptions, type ImportResult, importOpenApi } from './openapi/import.js';
export type { LoadOptions, OpenApiSource } from './openapi/load.js';
export type { SchemeCredentials } from './openapi/security.js';
export type { ServerChoice } from './openapi/servers.js';
export { type WriteToolConfigOptions, readToolConfig, writeToolConfig } from './openapi/write.js';
export {
  type OpenApiProvider,
  type OpenApiProviderOptions,
  createOpenApiProvider,
} from './openapi-provider.js';
export { MAX_RETRY_AFTER_SECONDS } from './response.js';
export { type RestProvider, type RestProviderOptions, createRestProvider } from './rest-provider.js';
export { definitionHash } from './tool-spec.js';
