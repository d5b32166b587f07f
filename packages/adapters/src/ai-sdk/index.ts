// @toolplane/adapters/ai-sdk: everything exported here is public API.
export { type AISDKToolsOptions, createAISDKTools } from './tools.js';
