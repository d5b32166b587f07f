// Both grep engines over one workspace, for tests that hold the Node engine to ripgrep's answers.
import type { ToolContext } from '@toolplane/core';
import { expect } from 'vitest';
import { findRipgrep } from '../../src/grep/find-ripgrep.js';
import { type BuiltinProvider, createBuiltinProvider } from '../../src/provider.js';
import { inCI, okText } from './index.js';

/** The ripgrep binary on PATH; CI must have one (a missing rg would skip every comparison). */
export const ripgrep = findRipgrep();
if (!ripgrep && inCI) throw new Error('ripgrep (rg) must be on PATH in CI: apt-get install ripgrep');

/** A grep provider per engine (ripgrep only when on PATH). */
export interface GrepEngines {
  readonly node: BuiltinProvider;
  readonly rg: BuiltinProvider | undefined;
  /** Runs one grep through both engines: the Node engine's text, asserted equal to ripgrep's. */
  both(args: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

export function grepEngines(workspace: string, ctx: ToolContext): GrepEngines {
  const node = createBuiltinProvider({ workspace, tools: ['grep'], grep: { ripgrep: false } });
  const rg = ripgrep ? createBuiltinProvider({ workspace, tools: ['grep'] }) : undefined;
  return {
    node,
    rg,
    async both(args) {
      const viaNode = await node.execute('grep', args, ctx);
      expect(viaNode.ok && (viaNode.structured as { engine: string }).engine).toBe('node');
      const text = okText(viaNode);
      if (rg) expect(text).toBe(okText(await rg.execute('grep', args, ctx)));
      return text;
    },
    async close() {
      await node.close?.();
      await rg?.close?.();
    },
  };
}
