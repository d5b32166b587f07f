// @toolplane/adapters/anthropic: everything exported here is public API.
export { type AnthropicTools, createAnthropicTools } from './tools.js';
