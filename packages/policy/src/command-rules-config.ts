import { ToolError } from '@toolplane/core';
import type { CompiledCommandRules } from './command-check.js';
import { compileCommandPattern } from './command-pattern.js';
import type { PolicyConfig } from './config.js';
import { PERMISSION_MODES } from './modes.js';
import { DEFAULT_PROTECTED_PATHS, type FindingCategory, compileProtectedPaths } from './shell/index.js';

const CATEGORIES: ReadonlySet<string> = new Set([
  'destructive-file-operation',
  'disk-destruction',
  'system-control',
  'fork-bomb',
  'remote-code-execution',
  'reverse-shell',
  'eval-injection',
]);
const MODES: ReadonlySet<string> = new Set(PERMISSION_MODES);

/** A config list that must be an array of strings (a JSON file may hold anything). */
function stringList(list: unknown, where: string): readonly string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list) || list.some((entry) => typeof entry !== 'string'))
    throw new ToolError('CONFIG_INVALID', `${where} must be an array of strings, such as ["git status"]`);
  return list;
}

/** The command rules of a config, compiled; throws `CONFIG_INVALID` naming a bad entry. */
export function compileCommandRules(config: PolicyConfig): CompiledCommandRules {
  const compile = (key: 'allow' | 'ask' | 'deny') =>
    stringList(config.commands?.[key], `commands.${key}`).map(compileCommandPattern);
  const disabled = stringList(config.commands?.disableDefaultRules, 'commands.disableDefaultRules');
  const unknown = disabled.find((category) => !CATEGORIES.has(category));
  if (unknown !== undefined)
    throw new ToolError(
      'CONFIG_INVALID',
      `commands.disableDefaultRules: "${unknown}" is not a category; use one of ${[...CATEGORIES].join(', ')}`,
    );
  if (config.mode !== undefined && !MODES.has(config.mode))
    throw new ToolError(
      'CONFIG_INVALID',
      `mode "${String(config.mode)}" is unknown; use one of ${[...MODES].join(', ')}`,
    );
  const protectedList = config.commands?.protectedPaths;
  const protectedPaths = stringList(protectedList ?? DEFAULT_PROTECTED_PATHS, 'commands.protectedPaths');
  const empty = protectedPaths.findIndex(
    (pattern) => pattern.trim() === '' || /^[./]*$/.test(pattern.trim()),
  );
  if (empty >= 0)
    throw new ToolError(
      'CONFIG_INVALID',
      `commands.protectedPaths[${empty}]: "${protectedPaths[empty]}" names no path; use a pattern such as ".git/hooks/**" or ".envrc"`,
    );
  return {
    allow: compile('allow'),
    ask: compile('ask'),
    deny: compile('deny'),
    disabledDefaults: new Set(disabled as readonly FindingCategory[]),
    protectedPaths: compileProtectedPaths(protectedPaths),
  };
}
