import { appendFileSync } from 'node:fs';
import type { Middleware, ToolResult } from '@toolplane/core';
import type { RecordedCall, RecordingLine } from './recording.js';

/** Options of {@link createRecorder}. */
export interface RecorderOptions {
  /** A JSONL file the lines are appended to (written synchronously, in call order). */
  readonly path?: string;
  /** Or a function given each line (JSON text without the newline). */
  readonly write?: (line: string) => void;
}

/** The recording middleware, and the lines it wrote. */
export interface Recorder extends Middleware {
  /** Every line recorded so far. */
  lines(): readonly RecordingLine[];
}

function withoutMeta(result: ToolResult): ToolResult {
  const { meta: _meta, ...rest } = result;
  return rest as ToolResult;
}

/**
 * A middleware that records every call and its result to JSONL (a `tool` line the first time a
 * tool is seen, then a `call` line per call). It sits in the `output` phase: inside the size cap
 * and outside the scrubber (`transform`), so it records the arguments as validated and the
 * result after scrubbing, never a credential the scrubber removed.
 *
 * @example
 * orchestrator.use(scrubberMiddleware(scrubber)).use(createRecorder({ path: 'calls.jsonl' }));
 */
export function createRecorder(options: RecorderOptions): Recorder {
  const { path, write } = options;
  if (path === undefined && write === undefined)
    throw new TypeError('createRecorder needs a path or a write function');
  const lines: RecordingLine[] = [];
  const seen = new Set<string>();
  const emit = (line: RecordingLine): void => {
    lines.push(line);
    const text = JSON.stringify(line);
    if (path !== undefined) appendFileSync(path, `${text}\n`);
    if (write) write(text);
  };
  return {
    name: 'record',
    phase: 'output',
    lines: () => lines,
    async handle(call, next) {
      const result = await next(call);
      const tool = call.tool.spec;
      if (!seen.has(tool.name)) {
        seen.add(tool.name);
        emit({ type: 'tool', name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
      }
      const entry: RecordedCall = {
        type: 'call',
        tool: tool.name,
        args: call.args,
        result: withoutMeta(result),
      };
      emit(entry);
      return result;
    },
  };
}
