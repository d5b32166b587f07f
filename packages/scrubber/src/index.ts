// @toolplane/scrubber: everything exported here is public API.
export { ALPHABETS, type FakeSource } from './alphabets.js';
export type { AddSecretOptions } from './exact-secrets.js';
export { type ScrubberMiddlewareOptions, scrubberMiddleware } from './middleware.js';
export { isPlaceholder, looksRandom } from './placeholder.js';
export { DEFAULT_RULES } from './rules/index.js';
export { type Scrubber, type ScrubberOptions, createScrubber } from './scrubber.js';
export { base64Cores, type SecretVariant, secretVariants } from './secret-variants.js';
export type { StreamScrubber } from './stream.js';
export type { Carry, Finding, PositiveSample, RuleMatch, ScrubOutcome, SecretRule } from './types.js';
