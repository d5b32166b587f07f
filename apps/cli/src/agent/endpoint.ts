// Where `agent run` sends its model requests: the config's `model:` section, else the OpenAI
// environment variables. Checked before any provider starts, so a missing endpoint costs nothing.
import { homedir } from 'node:os';
import type { LoadedConfig } from '../config/load.js';
import { configError } from '../output/cli-error.js';

/** The endpoint and model of a run, resolved. */
export interface ModelEndpoint {
  readonly baseUrl: string;
  readonly apiKey?: string;
  /** The model of the root agent and of subagents that name none. */
  readonly model?: string;
  readonly requestTimeoutMs?: number;
  readonly idleTimeoutMs?: number;
  readonly maxRetries?: number;
  readonly stream?: boolean;
}

const OPENAI_BASE_URL = 'https://api.openai.com/v1';
const HINT =
  'set model.baseUrl in the config or OPENAI_BASE_URL (and model.apiKey or OPENAI_API_KEY when the endpoint needs a key)';

async function expand(
  field: string,
  value: string,
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  if (!value.includes('${')) return value;
  const { interpolate } = await import('@toolplane/mcp-provider');
  const outcome = interpolate(value, { env, workspaceFolder: loaded.directory, userHome: homedir() });
  if (outcome.ok) return outcome.value;
  throw configError(
    `${field} uses ${outcome.missing.join(', ')}, which has no value`,
    `set the variable, or give a default with \${VAR:-default}`,
  );
}

/**
 * The endpoint of `agent run`. `model.baseUrl` (or `OPENAI_BASE_URL`) names it; with neither,
 * a key (`model.apiKey` or `OPENAI_API_KEY`) means OpenAI's own. Nothing at all, a base URL that
 * is not http(s), or no model name is `CONFIG_INVALID` saying what to set.
 */
export async function resolveEndpoint(
  loaded: LoadedConfig,
  options: { readonly model?: string | undefined; readonly rootHasModel: boolean },
  env: NodeJS.ProcessEnv = process.env,
): Promise<ModelEndpoint> {
  const section = loaded.config.model ?? {};
  const apiKey =
    section.apiKey !== undefined
      ? await expand('model.apiKey', section.apiKey, loaded, env)
      : env.OPENAI_API_KEY || undefined;
  const configured =
    section.baseUrl !== undefined ? await expand('model.baseUrl', section.baseUrl, loaded, env) : undefined;
  const fromEnv = env.OPENAI_BASE_URL || undefined;
  const baseUrl = configured ?? fromEnv ?? (apiKey ? OPENAI_BASE_URL : undefined);
  if (baseUrl === undefined)
    throw configError(
      'agent run has no model endpoint: the config has no model.baseUrl and OPENAI_BASE_URL is not set',
      HINT,
    );
  const where = configured !== undefined ? 'model.baseUrl' : 'OPENAI_BASE_URL';
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw configError(
      `${where} must be an http(s) URL up to /v1, got ${JSON.stringify(baseUrl.slice(0, 200))}`,
      'for example http://127.0.0.1:11434/v1 (Ollama) or https://api.openai.com/v1',
    );
  const model = options.model ?? section.name;
  if (model === undefined && !options.rootHasModel)
    throw configError(
      'agent run has no model name: the config has no model.name and --model is not given',
      'set model.name in the config (for example gpt-4.1-mini), or give --model',
    );
  return {
    baseUrl,
    ...(apiKey ? { apiKey } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(section.requestTimeoutMs !== undefined ? { requestTimeoutMs: section.requestTimeoutMs } : {}),
    ...(section.idleTimeoutMs !== undefined ? { idleTimeoutMs: section.idleTimeoutMs } : {}),
    ...(section.maxRetries !== undefined ? { maxRetries: section.maxRetries } : {}),
    ...(section.stream !== undefined ? { stream: section.stream } : {}),
  };
}
