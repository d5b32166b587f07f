// @toolplane/adapters/langchain: everything exported here is public API.
export { type LangChainToolsOptions, createLangChainTools } from './tools.js';
