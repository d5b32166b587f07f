import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';
import * as stdio from '../src/stdio/index.js';

const source = fileURLToPath(new URL('../src/index.ts', import.meta.url));

/** Files reachable from `entry` through static imports (dynamic `import()` is not followed). */
function staticGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const queue = [entry];
  for (let i = 0; i < 500 && queue.length > 0; i++) {
    const file = queue.shift() as string;
    if (graph.has(file)) continue;
    const text = readFileSync(file, 'utf8');
    const specifiers = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map(
      (match) => match[1] as string,
    );
    graph.set(file, specifiers);
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
    }
  }
  return graph;
}

describe('public surface', () => {
  it('pins the root export list', () => {
    expect(Object.keys(root).sort()).toEqual([
      'AUTH_REQUIRED',
      'DEFAULT_RESTART_POLICY',
      'ELICITATION_LIMITS',
      'MCP_DEFAULTS',
      'PASSTHROUGH_METHODS',
      'RESOURCE_TOOL_NAMES',
      'RESTART_BACKOFF_MS',
      'SAMPLING_DEFAULTS',
      'SERVER_NAME_PATTERN',
      'authRequiredError',
      'beginMcpLogin',
      'checkElicitationAnswer',
      'completeMcpLogin',
      'createFileTokenStore',
      'createMcpAuth',
      'createMcpProvider',
      'createMcpProviders',
      'createMcpRoots',
      'createMemoryTokenStore',
      'createOpenAiSampler',
      'createSharedRegistry',
      'createToolFilter',
      'defaultTokenFilePath',
      'definitionHash',
      'elicitationFields',
      'interpolate',
      'isAuthRequired',
      'isStdioConfig',
      'loadMcpConfig',
      'loginMcpServer',
      'logoutMcpServer',
      'mcpAuthStatus',
      'normalizeDocument',
      'problemToError',
      'startMcpProviders',
    ]);
  });

  it('pins the stdio subpath export list', () => {
    expect(Object.keys(stdio).sort()).toEqual([
      'MARKER_VARIABLE',
      'ProcessLedger',
      'StdioProcessTransport',
      'defaultRunDirectory',
      'guardedProcessTreeCount',
      'killMarkedSync',
      'killProcessTree',
      'killProcessTreesSync',
      'ledgerFor',
      'openStdioSession',
      'serverEnvironment',
    ]);
  });

  it('keeps child_process and the v2 client out of the root entry (loaded on demand only)', () => {
    const graph = staticGraph(source);
    expect(graph.size).toBeGreaterThan(10);
    for (const [file, specifiers] of graph) {
      for (const specifier of specifiers) {
        expect(`${file} -> ${specifier}`).not.toMatch(
          /-> (node:)?child_process$|-> @modelcontextprotocol\/client|-> \.\.?\/stdio\//,
        );
      }
    }
  });
});
