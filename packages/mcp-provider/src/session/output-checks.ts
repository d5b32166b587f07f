import { type CompiledSchema, ToolError, compileSchema, formatIssues } from '@toolplane/core';
import { namesProtoProperty } from '../tools/proto-property.js';
import { nestsDeeperThan } from './nesting.js';
import type { McpCallOutcome, McpToolDefinition } from './session.js';

/**
 * How deep a result may nest: deep enough for real data (a syntax tree), shallow enough for
 * the recursive walks after it (`JSON.stringify` overflows a few thousand levels down).
 */
export const MAX_RESULT_DEPTH = 1000;

/** A tool's listed output schema and, once a call needed it, its compiled form. */
interface OutputSchema {
  readonly schema: NonNullable<McpToolDefinition['outputSchema']>;
  compiled?: CompiledSchema | null;
}

/**
 * Output schemas of every `tools/list` page, and the check of a `tools/call` result against
 * them. Shared by every call path: the SDK 1.x client keeps only the validators of the last page
 * it listed, so tools of earlier pages would go unchecked if the provider relied on it.
 */
export class OutputChecks {
  /** Output schemas by tool, as listed; compiled on the tool's first call (a listing compiles nothing). */
  private readonly schemas = new Map<string, OutputSchema>();

  /** Remembers output schemas from one `tools/list` page (the first page starts a new list). */
  learn(tools: readonly McpToolDefinition[], firstPage: boolean): void {
    if (firstPage) this.schemas.clear();
    for (const tool of tools) {
      if (tool.outputSchema) this.schemas.set(tool.name, { schema: tool.outputSchema });
      else this.schemas.delete(tool.name);
    }
  }

  /** `INVALID_RESULT` when a result nests too deep, breaks its tool's output schema or lacks structured content. */
  check(tool: string, outcome: McpCallOutcome): ToolError | undefined {
    if (
      nestsDeeperThan(outcome.structuredContent, MAX_RESULT_DEPTH) ||
      nestsDeeperThan(outcome.content, MAX_RESULT_DEPTH)
    ) {
      return new ToolError(
        'INVALID_RESULT',
        `Tool ${tool} returned a result that nests deeper than ${MAX_RESULT_DEPTH} levels, which cannot be passed on: fix the server`,
      );
    }
    const entry = this.schemas.get(tool);
    if (!entry) return undefined;
    if (!outcome.structuredContent && !outcome.isError) {
      return new ToolError(
        'INVALID_RESULT',
        `Tool ${tool} has an output schema but did not return structured content`,
      );
    }
    const compiled = compiledOutput(entry);
    if (!compiled || !outcome.structuredContent) return undefined;
    const checked = compiled.validate(outcome.structuredContent);
    if (checked.valid) return undefined;
    return new ToolError(
      'INVALID_RESULT',
      `Structured content does not match the tool's output schema: ${formatIssues(checked.issues, 5, checked.issueCount)}`,
      {
        details: {
          issues: checked.issues,
          ...(checked.issueCount === undefined ? {} : { issueCount: checked.issueCount }),
        },
      },
    );
  }

  /** `outcome` when it passes {@link check}; throws the `INVALID_RESULT` error otherwise. */
  checked(tool: string, outcome: McpCallOutcome): McpCallOutcome {
    const problem = this.check(tool, outcome);
    if (problem) throw problem;
    return outcome;
  }
}

/** The compiled schema (compiled on first use), or null when it does not compile. */
function compiledOutput(entry: OutputSchema): CompiledSchema | null {
  if (entry.compiled === undefined && namesProtoProperty(entry.schema)) entry.compiled = null;
  if (entry.compiled === undefined) {
    try {
      entry.compiled = compileSchema(entry.schema);
    } catch {
      entry.compiled = null; // not compilable: results go unchecked, as the input side reports
    }
  }
  return entry.compiled;
}
