import { isAbsolute } from 'node:path';
import { z } from '@hono/zod-openapi';
import { type JsonSchema, ToolError, compileSchema, errorMessage } from '@toolplane/core';
import { ApiError } from '../http/api-error.js';
import { PrincipalId } from '../http/schemas.js';
import { placeholdersOf } from './argv.js';
import { DEFAULT_CUSTOM_TOOL_TIMEOUT_MS } from './custom-tool.js';
import type { CustomToolInput } from './custom-tool-store.js';

/** The body of `PUT /v1/custom-tools/{name}`. */
export const CustomToolBody = z
  .object({
    description: z.string().min(1).max(4000),
    parameters: z
      .record(z.string(), z.unknown())
      .default({ type: 'object', properties: {} })
      .openapi({ description: 'JSON Schema of the arguments (type object)' }),
    argv: z
      .array(z.string().max(8192))
      .min(1)
      .max(256)
      .openapi({
        description: 'The command and its arguments; `{param}` is replaced by that argument, as one argument',
        example: ['grep', '-n', '--', '{pattern}', 'notes.txt'],
      }),
    timeoutMs: z.number().int().min(1).max(3_600_000).default(DEFAULT_CUSTOM_TOOL_TIMEOUT_MS),
    cwd: z.string().max(4096).nullable().default(null),
    env: z
      .record(
        z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'),
        z.string().max(65536),
      )
      .default({})
      .openapi({ description: 'Stored sealed with AES-256-GCM; never answered back' }),
    scope: z.union([z.literal('global'), z.object({ agent: PrincipalId })]).default('global'),
  })
  .openapi('CustomToolInput');

const invalid = (message: string): ApiError =>
  new ApiError(400, 'INVALID_ARGUMENTS', 'invalid_custom_tool', message);

/** Checks what the schema cannot: a fixed command, placeholders that name parameters, a schema that compiles. */
export function toCustomToolInput(name: string, body: z.infer<typeof CustomToolBody>): CustomToolInput {
  const parameters = body.parameters as JsonSchema;
  if (parameters.type !== 'object') throw invalid('parameters must be a JSON Schema with "type": "object"');
  try {
    compileSchema(parameters);
  } catch (error) {
    throw invalid(
      `parameters is not a JSON Schema that compiles: ${ToolError.isInstance(error) ? error.message : errorMessage(error)}`,
    );
  }
  const command = body.argv[0] as string;
  if (command.length === 0 || placeholdersOf([command]).length > 0)
    throw invalid(
      'argv[0] is the command: it must be a fixed, non-empty program name or path, without {placeholders}',
    );
  const properties = Object.keys((parameters.properties as Record<string, unknown> | undefined) ?? {});
  const unknownNames = placeholdersOf(body.argv).filter((placeholder) => !properties.includes(placeholder));
  if (unknownNames.length > 0)
    throw invalid(
      `argv uses {${unknownNames.join('}, {')}}, which parameters.properties does not define: add them or fix the argv`,
    );
  if (body.cwd !== null && !isAbsolute(body.cwd)) throw invalid('cwd must be an absolute path');
  return {
    name,
    description: body.description,
    parameters,
    argv: body.argv,
    timeoutMs: body.timeoutMs,
    cwd: body.cwd,
    env: body.env,
    scopeAgent: body.scope === 'global' ? null : body.scope.agent,
  };
}
