// @toolplane/adapters/openai: everything exported here is public API.
export { type OpenAIChatTools, type OpenAIToolsOptions, createOpenAIChatTools } from './chat.js';
export { type OpenAIResponsesTools, createOpenAIResponsesTools } from './responses.js';
