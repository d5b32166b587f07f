import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';
import * as testing from '../src/testing/index.js';

describe('public surface', () => {
  it('pins the export lists', () => {
    expect(Object.keys(root).sort()).toEqual([
      'ACTIONS_NAMESPACE',
      'AGENT_NAMESPACE',
      'AnnounceQueue',
      'DEFAULT_LIMITS',
      'FINAL_REPORT_TOOL',
      'HANDOFF_TOOL',
      'RESERVED_AGENT_NAMES',
      'RUNNER_SPEC_VERSION',
      'SPAWNING_TOOL_PATTERNS',
      'SubagentManager',
      'TASK_STATUS_TOOL',
      'checkDefinition',
      'createActionProvider',
      'createAgentProvider',
      'createAgentRegistry',
      'createOpenAIRunner',
      'createSubagents',
      'describeLimits',
      'internalToolSpecs',
      'interpretInternalCall',
      'isReadyToReport',
    ]);
    expect(Object.keys(testing).sort()).toEqual(['startScriptedModel']);
  });

  it('keeps the root entry free of Node built-ins (the scripted server lives under ./testing)', () => {
    const sourceDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      expect(source, file).not.toMatch(/from 'node:/);
      for (const match of source.matchAll(/from '(\.{1,2}\/[^']+)\.js'/g))
        visit(join(dirname(file), `${match[1]}.ts`));
    };
    visit(join(sourceDir, 'index.ts'));
    expect(seen.size).toBeGreaterThan(10);
    expect([...seen].some((file) => file.includes('testing'))).toBe(false);
  });
});
