// @toolplane/rest-openapi: everything exported here is public API.
export type {
  Duration,
  RestAuthConfig,
  RestBodyBinding,
  RestMethod,
  RestParameterBinding,
  RestStreamingConfig,
  RestToolConfig,
} from './config.js';
export { parseDuration } from './duration.js';
export { encodeStrict } from './encoding.js';
export { type RestProvider, type RestProviderOptions, createRestProvider } from './rest-provider.js';
export { definitionHash } from './tool-spec.js';
