import { z } from 'zod';
import type { ToolContext } from './context.js';
import { ownFieldsFor } from './own-fields.js';
import { type ToolResult, type ToolReturn, fail, failFromError, toToolResult } from './result.js';
import { formatIssues, type ValidationIssue } from './schema-validator.js';
import type { JsonSchema, SideEffect, ToolAnnotations, ToolSpec } from './spec.js';
import { noteZodValidated } from './zod-validated-schemas.js';

/** A tool that runs in this process: its spec and how to run it. */
export interface Tool {
  readonly spec: ToolSpec;
  /** Validates `args` itself, never throws: failures come back as results. */
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}

/** Options of {@link defineTool}. */
export interface DefineToolOptions<
  Input extends z.ZodType,
  Output extends z.ZodType | undefined = undefined,
> {
  readonly name: string;
  readonly description: string;
  readonly title?: string;
  /** Zod schema of the arguments; turned into the JSON Schema the model sees. */
  readonly input: Input;
  /** Zod schema of `structured` output, when the tool returns structured data. */
  readonly output?: Output;
  readonly annotations?: ToolAnnotations;
  readonly sideEffect: SideEffect;
  readonly groups?: readonly string[];
  readonly queue?: string;
  readonly cacheTtlMs?: number;
  readonly timeoutMs?: number;
  readonly instructions?: string;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly commandArgument?: string;
  execute(args: z.output<Input>, ctx: ToolContext): ToolReturn | Promise<ToolReturn>;
}

/** JSON Schema (draft-07, no `$schema`) of a zod schema, as LLM APIs accept it. */
export function zodToJsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json;
}

/** Turns zod issues into toolplane validation issues (`args.items[0].name`). */
export function zodIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => {
    let path = 'args';
    for (const part of issue.path) {
      path += typeof part === 'number' ? `[${part}]` : `.${String(part)}`;
    }
    return { path, message: issue.message };
  });
}

/**
 * Defines a tool from a zod schema. The JSON Schema is computed once; arguments are parsed
 * with zod (defaults and transforms apply) before `execute` runs; anything thrown becomes a
 * failed result.
 *
 * @example
 * const add = defineTool({
 *   name: 'add',
 *   description: 'Adds two numbers.',
 *   input: z.object({ a: z.number(), b: z.number() }),
 *   sideEffect: 'none',
 *   execute: ({ a, b }) => String(a + b),
 * });
 */
export function defineTool<Input extends z.ZodType, Output extends z.ZodType | undefined = undefined>(
  options: DefineToolOptions<Input, Output>,
): Tool {
  const { input, output, execute, ...rest } = options;
  const inputSchema = zodToJsonSchema(input, 'input');
  noteZodValidated(inputSchema);
  const spec: ToolSpec = {
    ...rest,
    inputSchema,
    ...(output ? { outputSchema: zodToJsonSchema(output, 'output') } : {}),
  };
  return {
    spec,
    async execute(args, ctx) {
      const parsed = input.safeParse(ownArguments(input, args));
      if (!parsed.success) {
        const issues = zodIssues(parsed.error);
        return fail('INVALID_ARGUMENTS', `${spec.name}: ${formatIssues(issues)}`, { details: { issues } });
      }
      let result: ToolResult;
      try {
        result = toToolResult(await execute(parsed.data, ctx));
      } catch (error) {
        return failFromError(error);
      }
      if (output && result.ok && result.structured !== undefined) {
        const checked = output.safeParse(result.structured);
        if (!checked.success) {
          return fail(
            'INVALID_RESULT',
            `${spec.name} returned structured data that does not match its output schema: ${formatIssues(zodIssues(checked.error))}`,
          );
        }
      }
      return result;
    },
  };
}

/**
 * The arguments with their own fields only, at every depth a `z.object` reads (see
 * {@link ownFieldsFor}); as given when reading them throws (a getter), which zod then reports.
 */
function ownArguments(input: z.ZodType, args: unknown): unknown {
  try {
    return ownFieldsFor(input, args);
  } catch {
    return args;
  }
}
