import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as aiSdk from '../src/ai-sdk/index.js';
import * as anthropic from '../src/anthropic/index.js';
import * as root from '../src/index.js';
import * as langchain from '../src/langchain/index.js';
import * as openai from '../src/openai/index.js';

const SDKS = ['openai', '@anthropic-ai/sdk', 'ai', '@langchain/core'];

describe('public surface', () => {
  it('pins the export lists', () => {
    expect(Object.keys(root).sort()).toEqual([
      'DEFAULT_MAX_RECURSION_DEPTH',
      'DIALECTS',
      'NAME_RULES',
      'REPLAY_MISS',
      'SEVERITIES',
      'TOOL_FIELD_WEIGHTS',
      'TOOL_SEARCH_NAME',
      'allocateDialectNames',
      'compileTool',
      'compileTools',
      'createBm25Index',
      'createRecorder',
      'createReplayProvider',
      'createToolBridge',
      'createToolIndex',
      'createToolSearchProvider',
      'dialectName',
      'exportTools',
      'formatCompatReport',
      'foundToolNames',
      'parseRecording',
      'restoreValue',
      'resultText',
      'toAnthropicTool',
      'toChatCompletionsTool',
      'toDefinition',
      'toGeminiFunctionDeclaration',
      'toMcpTool',
      'toResponsesTool',
      'tokenize',
    ]);
    expect(Object.keys(openai).sort()).toEqual(['createOpenAIChatTools', 'createOpenAIResponsesTools']);
    expect(Object.keys(anthropic)).toEqual(['createAnthropicTools']);
    expect(Object.keys(aiSdk)).toEqual(['createAISDKTools']);
    expect(Object.keys(langchain)).toEqual(['createLangChainTools']);
  });

  it('keeps every SDK out of the root entry', () => {
    const sourceDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/from '([^']+)'/g)) {
        const specifier = match[1] as string;
        expect(
          SDKS.some((sdk) => specifier === sdk || specifier.startsWith(`${sdk}/`)),
          `${file} imports ${specifier}`,
        ).toBe(false);
        if (specifier.startsWith('.')) visit(join(dirname(file), specifier.replace(/\.js$/, '.ts')));
      }
    };
    visit(join(sourceDir, 'index.ts'));
    expect(seen.size).toBeGreaterThan(15);
  });
});
