import { readFileSync } from 'node:fs';
import {
  PROVIDER_SPEC_VERSION,
  type ToolProvider,
  type ToolResult,
  type ToolSpec,
  fail,
  stableStringify,
} from '@toolplane/core';
import { type RecordedCall, type RecordingLine, parseRecording } from './recording.js';

/** `details.reason` of the failure a replay answers for a call it has no recording for. */
export const REPLAY_MISS = 'REPLAY_MISS';

/** Options of {@link createReplayProvider}. */
export interface ReplayOptions {
  /** A JSONL file written by the recorder, or its lines. */
  readonly recording: string | readonly RecordingLine[];
  /** The provider's namespace (names are served as recorded, unprefixed); default `replay`. */
  readonly namespace?: string;
}

/**
 * A provider that serves recorded results: the tools of the recording under their recorded
 * names, and for each call the recorded result of the same tool with the same arguments (key:
 * the stable JSON of the arguments). Calls with the same key get their recordings in order, and
 * the last one again once all were served. A call with no recording fails with
 * `EXECUTION_FAILED`, not retryable, `details.reason` `REPLAY_MISS`, naming the recorded
 * arguments of that tool, so a CI run never silently reaches a live tool.
 *
 * @example
 * orchestrator.register(createReplayProvider({ recording: 'calls.jsonl' }));
 */
export function createReplayProvider(options: ReplayOptions): ToolProvider {
  const lines =
    typeof options.recording === 'string'
      ? parseRecording(readFileSync(options.recording, 'utf8'))
      : options.recording;
  const specs: ToolSpec[] = [];
  const calls = new Map<string, RecordedCall[]>();
  const served = new Map<string, number>();
  const keysByTool = new Map<string, string[]>();
  for (const line of lines) {
    if (line.type === 'tool') {
      if (!specs.some((s) => s.name === line.name))
        specs.push({
          name: line.name,
          description: line.description,
          inputSchema: line.inputSchema,
          sideEffect: 'none',
        });
      continue;
    }
    const key = `${line.tool}\u0000${stableStringify(line.args)}`;
    const list = calls.get(key);
    if (list) list.push(line);
    else {
      calls.set(key, [line]);
      keysByTool.set(line.tool, [...(keysByTool.get(line.tool) ?? []), stableStringify(line.args)]);
    }
  }
  return {
    specificationVersion: PROVIDER_SPEC_VERSION,
    kind: 'replay',
    namespace: options.namespace ?? 'replay',
    prefixNames: false,
    listTools: () => specs,
    async execute(name, args): Promise<ToolResult> {
      const argsText = stableStringify(args);
      const key = `${name}\u0000${argsText}`;
      const list = calls.get(key);
      if (!list) {
        const known = keysByTool.get(name) ?? [];
        const hint =
          known.length === 0
            ? 'no call of it was recorded'
            : `recorded arguments: ${known.slice(0, 3).join(', ')}`;
        return fail(
          'EXECUTION_FAILED',
          `no recording of ${name} with ${argsText} (${hint}): record this call again`,
          {
            retryable: false,
            details: { reason: REPLAY_MISS, tool: name, args },
          },
        );
      }
      const at = served.get(key) ?? 0;
      served.set(key, at + 1);
      return (list[Math.min(at, list.length - 1)] as RecordedCall).result;
    },
  };
}
