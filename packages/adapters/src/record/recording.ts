import { type JsonSchema, ToolError, type ToolResult } from '@toolplane/core';

/** A tool as a recording keeps it (what a replay lists). */
export interface RecordedTool {
  readonly type: 'tool';
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

/** One call and its result, as recorded (the result without call metadata). */
export interface RecordedCall {
  readonly type: 'call';
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly result: ToolResult;
}

/** A line of a recording. */
export type RecordingLine = RecordedTool | RecordedCall;

/**
 * Reads a JSONL recording. Throws `CONFIG_INVALID` naming the line that is not a recording line.
 */
export function parseRecording(text: string): RecordingLine[] {
  const lines: RecordingLine[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ToolError(
        'CONFIG_INVALID',
        `recording line ${i + 1} is not JSON: record again or fix the file`,
      );
    }
    const line = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const valid =
      (line.type === 'tool' && typeof line.name === 'string') ||
      (line.type === 'call' &&
        typeof line.tool === 'string' &&
        typeof line.args === 'object' &&
        line.args !== null &&
        typeof line.result === 'object' &&
        line.result !== null);
    if (!valid)
      throw new ToolError(
        'CONFIG_INVALID',
        `recording line ${i + 1} is neither a tool nor a call line: record again or fix the file`,
      );
    lines.push(value as RecordingLine);
  }
  return lines;
}
