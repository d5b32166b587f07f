// GitHub's REST description (npm package @octokit/openapi) imported through
// @toolplane/rest-openapi and listed by an orchestrator: 1,000+ real tool specs.
import { createRequire } from 'node:module';
import type { ToolSpec } from '@toolplane/core';
import { createOrchestrator } from '@toolplane/orchestrator';
import { createOpenApiProvider } from '@toolplane/rest-openapi';

const require = createRequire(import.meta.url);

/** Path of the GitHub REST description. */
export const GITHUB_DESCRIPTION: string = require.resolve('@octokit/openapi/generated/api.github.com.json');

/** The public specs of every GitHub operation, as a model would see them. */
export async function githubTools(): Promise<readonly ToolSpec[]> {
  const orchestrator = createOrchestrator({ internalTools: false });
  orchestrator.register(
    createOpenApiProvider(GITHUB_DESCRIPTION, { namespace: 'github', baseUrl: 'http://127.0.0.1:9' }),
  );
  const [report] = await orchestrator.warmup();
  if (report && 'error' in report && report.error)
    throw new Error(`GitHub import failed: ${String(report.error)}`);
  const tools = orchestrator.listTools();
  await orchestrator.close();
  return tools;
}
