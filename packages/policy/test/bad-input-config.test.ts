import { ToolError } from '@toolplane/core';
import { describe, expect, it } from 'vitest';
import { type PolicyConfig, createPolicy } from '../src/index.js';

/** Configs as a JSON file may hold them: wrong shapes are CONFIG_INVALID naming the entry, never a TypeError. */
describe('malformed policy configs', () => {
  it.each([
    [
      'a string for commands.allow',
      { commands: { allow: 'git status' } },
      /commands\.allow must be an array/,
    ],
    [
      'a number among command patterns',
      { commands: { deny: ['rm -rf *', 7] } },
      /commands\.deny must be an array/,
    ],
    ['null among command patterns', { commands: { ask: [null] } }, /commands\.ask must be an array/],
    ['an object for a deny list', { deny: { github: true } }, /deny must be an array of tool references/],
    ['a string for an agent allow list', { agents: { coder: { allow: 'read' } } }, /agents\.coder.*array/],
    [
      'a misspelt default rule category',
      { commands: { disableDefaultRules: ['fork-bombs'] } },
      /"fork-bombs" is not a category/,
    ],
    ['an unknown mode', { mode: 'yolo' }, /mode "yolo" is unknown/],
  ])('%s', (_label, config, message) => {
    let thrown: unknown;
    try {
      createPolicy(config as unknown as PolicyConfig);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ToolError);
    expect((thrown as ToolError).code).toBe('CONFIG_INVALID');
    expect((thrown as ToolError).message).toMatch(message);
  });
});
