import { PassThrough } from 'node:stream';
import type { ApprovalRequest } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { terminalApprovals } from '../src/prompts/terminal-approvals.js';
import { createTerminalReader } from '../src/prompts/terminal-reader.js';

function approvalRequest(tool: string): ApprovalRequest {
  return {
    id: `approval-${tool}`,
    tool,
    args: { path: 'notes.txt' },
    risk: 'medium',
    reason: 'writes a file',
    principal: {},
    sessionId: 'terminal',
    timeoutMs: 30_000,
  };
}

/** Resolves once `output` has received text containing `needle` (bounded by a timer). */
function written(output: PassThrough, needle: string): Promise<string> {
  let seen = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`never written: ${needle}; got ${seen}`)), 10_000);
    output.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(needle)) {
        clearTimeout(timer);
        resolve(seen);
      }
    });
  });
}

describe('an approval asked on the shared terminal', () => {
  it('ignores lines typed before its question and takes the answer typed after it', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const reader = createTerminalReader(input, output);
    input.write('y\n');
    await new Promise((resolve) => setImmediate(resolve));
    const asked = written(output, 'Allow [o]nce');
    const decision = terminalApprovals(reader).request(
      approvalRequest('write'),
      new AbortController().signal,
    );
    const text = await asked;
    expect(text).toContain('1 line typed before this question ignored');
    input.write('d\n');
    expect(await decision).toBe('deny');
    reader.close();
  });

  it('answers a question with the line typed once it is shown', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    const reader = createTerminalReader(input, output);
    const asked = written(output, 'Allow [o]nce');
    const decision = terminalApprovals(reader).request(
      approvalRequest('write'),
      new AbortController().signal,
    );
    const text = await asked;
    expect(text).not.toContain('typed before this question');
    input.write('always\n');
    expect(await decision).toBe('allow-always');
    reader.close();
  });
});
