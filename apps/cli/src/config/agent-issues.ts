// Checks of the `agents:` section the schema cannot make: JSON Schemas that must compile, the
// input schema's type, router destinations that must name agents of the section.
import type { JsonSchema } from '@toolplane/core';
import type { ConfigIssue } from './issue.js';
import { formatPath } from './issue.js';
import type { ParsedText } from './positions.js';
import type { ToolplaneConfig } from './schema.js';

/** Problems of the validated `agents:` section, at their positions. core (ajv) loads only for one. */
export async function agentIssues(
  file: string,
  config: ToolplaneConfig,
  locate: ParsedText['locate'],
): Promise<ConfigIssue[]> {
  const agents = config.agents;
  if (!agents || Object.keys(agents).length === 0) return [];
  const { compileSchema, errorMessage } = await import('@toolplane/core');
  const issues: ConfigIssue[] = [];
  const add = (path: (string | number)[], message: string): void => {
    issues.push({ file, ...locate(path), path: formatPath(path), message });
  };
  for (const [name, agent] of Object.entries(agents)) {
    const schemas: [string[], Record<string, unknown> | undefined][] = [
      [['inputSchema'], agent.inputSchema],
      [['output', 'schema'], agent.output?.schema],
    ];
    for (const [field, schema] of schemas) {
      if (schema === undefined) continue;
      try {
        compileSchema(schema as JsonSchema);
      } catch (error) {
        add(['agents', name, ...field], `is not a JSON Schema that compiles: ${errorMessage(error)}`);
      }
    }
    if (agent.inputSchema !== undefined && agent.inputSchema.type !== 'object')
      add(
        ['agents', name, 'inputSchema'],
        'must have type "object" (the arguments of agent__NAME are an object): add type: object',
      );
    for (const [index, destination] of (agent.router?.destinations ?? []).entries())
      if (!Object.hasOwn(agents, destination))
        add(
          ['agents', name, 'router', 'destinations', index],
          `names no agent of this section ("${destination}"): define it under agents or remove it`,
        );
  }
  return issues;
}
