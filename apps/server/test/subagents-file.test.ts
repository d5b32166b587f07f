import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { optionsFromEnv, startServer } from '../src/index.js';

const dirs: string[] = [];
function file(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolplane-subagents-file-'));
  dirs.push(dir);
  const path = join(dir, 'subagents.json');
  writeFileSync(path, content);
  return path;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const researcher = { name: 'researcher', description: 'Researches.', systemPrompt: 'You research.' };

describe('TOOLPLANE_SUBAGENTS_FILE', () => {
  it('reads the agents, the endpoint and the limits', () => {
    const path = file(
      JSON.stringify({
        agents: [researcher],
        endpoint: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5' },
        limits: { maxConcurrent: 2 },
      }),
    );
    expect(optionsFromEnv({ TOOLPLANE_SUBAGENTS_FILE: path }).subagents).toEqual({
      agents: [researcher],
      endpoint: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5' },
      limits: { maxConcurrent: 2 },
    });
  });

  it('refuses a file that is not JSON, has no agents array, or holds a key, with CONFIG_INVALID', () => {
    const bad: [string, string][] = [
      ['{ agents', 'not a readable JSON file'],
      ['{"agents": {}}', 'an "agents" array'],
      [JSON.stringify({ agents: [researcher], endpoint: { apiKey: 'x' } }), 'OPENAI_API_KEY'],
    ];
    for (const [content, message] of bad)
      expect(() => optionsFromEnv({ TOOLPLANE_SUBAGENTS_FILE: file(content) })).toThrow(
        expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining(message) }),
      );
  });

  it('fails the start on a bad definition, before any database opens', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'toolplane-subagents-start-'));
    dirs.push(stateDir);
    await expect(
      startServer({
        stateDir,
        port: 0,
        subagents: { agents: [{ ...researcher, name: 'has spaces' }] },
        log: () => {},
      }),
    ).rejects.toMatchObject({ code: 'CONFIG_INVALID' });
  });
});
