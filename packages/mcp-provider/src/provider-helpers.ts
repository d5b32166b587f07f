import {
  type ToolFailure,
  type ToolResult,
  contentText,
  fail,
  formatIssues,
  ok,
  textContent,
} from '@toolplane/core';
import type { McpServerConfig } from './config/types.js';
import { nestsDeeperThan } from './session/nesting.js';
import { MAX_RESULT_DEPTH } from './session/output-checks.js';
import type { McpCallOutcome } from './session/session.js';
import { type CatalogEntry, compiledSchemaOf } from './tools/catalog.js';
import { toContentBlocks } from './tools/content.js';

/**
 * Why a call's arguments are refused before anything is sent (`INVALID_ARGUMENTS`), or
 * undefined. Arguments nested deeper than a result may be are refused first: JSON.stringify
 * (the request), ajv and the SDKs walk them recursively, and overflowed the stack ("Maximum
 * call stack size exceeded", an `EXECUTION_FAILED` that said nothing of what to do). A schema
 * that does not compile is told to `reportSchema` and the arguments go unchecked.
 */
export function argumentsFailure(
  server: string,
  localName: string,
  entry: CatalogEntry,
  args: Record<string, unknown>,
  reportSchema: (message: string) => void,
): ToolFailure | undefined {
  const where = `MCP server "${server}" tool "${localName}"`;
  if (nestsDeeperThan(args, MAX_RESULT_DEPTH)) {
    return fail(
      'INVALID_ARGUMENTS',
      `${where}: the arguments nest deeper than ${MAX_RESULT_DEPTH} levels, which cannot be sent; pass flatter arguments`,
    );
  }
  const outcome = compiledSchemaOf(entry, reportSchema)?.validate(args);
  if (!outcome || outcome.valid) return undefined;
  return fail(
    'INVALID_ARGUMENTS',
    `${where}: ${formatIssues(outcome.issues, 5, outcome.issueCount)}; fix the arguments to match the tool's input schema`,
    {
      details: {
        issues: outcome.issues,
        ...(outcome.issueCount === undefined ? {} : { issueCount: outcome.issueCount }),
      },
    },
  );
}

/** Maps a `tools/call` result: `isError` becomes an `EXECUTION_FAILED` failure with the server's text. */
export function resultOf(server: string, tool: string, outcome: McpCallOutcome): ToolResult {
  const blocks = toContentBlocks(outcome.content);
  if (outcome.isError) {
    const text = contentText(blocks) || 'the server gave no details';
    return fail('EXECUTION_FAILED', `MCP server "${server}" tool "${tool}" reported an error: ${text}`, {
      content: blocks,
      retryable: false,
    });
  }
  if (outcome.structuredContent !== undefined) {
    const content = blocks.length > 0 ? blocks : [textContent(JSON.stringify(outcome.structuredContent))];
    return ok(content, outcome.structuredContent);
  }
  return ok(blocks);
}

/** Values a scrubber should redact: injected env values, headers and bearer tokens (short values excluded). */
export function secretValuesOf(config: McpServerConfig): string[] {
  const values = new Set<string>();
  const add = (value: string | undefined): void => {
    if (value && value.length >= 6) values.add(value);
  };
  if (config.type === 'stdio') {
    for (const value of Object.values(config.env ?? {})) add(value);
  } else {
    for (const value of Object.values(config.headers ?? {})) {
      add(value);
      const bearer = /^(?:Bearer|Basic|Token)\s+(.+)$/i.exec(value);
      if (bearer) add(bearer[1]);
    }
    add(config.bearerToken);
    try {
      const url = new URL(config.url);
      add(url.password ? decodeURIComponent(url.password) : undefined);
    } catch {
      // validated elsewhere
    }
  }
  return [...values];
}
