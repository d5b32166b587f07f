import { ToolError } from '@toolplane/core';
import { globMatcher } from '../../glob-match.js';
import { normalizePath } from '../paths/paths.js';
import type { ShellWord } from '../words/shell-word.js';

/**
 * Paths a shell command never writes without asking, in every permission mode: what runs code
 * later without anyone typing it (git hooks, git's config with its aliases, filters and
 * `core.hooksPath`, `.gitmodules`, shell start-up files, direnv's `.envrc`) and what changes which servers
 * and tools an agent gets (`.mcp.json` files, toolplane's own config and stores).
 *
 * A pattern without a leading `/` matches the last segments of a written path at any depth
 * (`.git/config` matches `sub/.git/config` and `/home/me/.git/config`); `*` matches within one
 * segment, `**` any number of segments.
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = [
  '.git/hooks',
  '.git/hooks/**',
  '.git/config',
  '.gitmodules',
  '.gitconfig',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.zlogout',
  '.envrc',
  '.mcp.json',
  '.vscode/mcp.json',
  '.cursor/mcp.json',
  'toolplane.config.*',
  '.toolplane',
  '.toolplane/**',
];

/** Segments past which a path is not matched (a bound on the work one word can cause). */
const MAX_SEGMENTS = 256;

type SegmentMatcher = '**' | ((segment: string) => boolean);

interface CompiledPattern {
  readonly source: string;
  readonly anchored: boolean;
  readonly segments: readonly SegmentMatcher[];
  /** The literal directories the pattern starts with (`.git` for `.git/hooks/**`). */
  readonly directories: readonly string[];
}

/** Which protected pattern a path matches, and how. */
export interface ProtectedMatch {
  readonly pattern: string;
  /** `path`: the path itself; `directory`: a directory protected paths live in (`.git`). */
  readonly how: 'path' | 'directory';
}

/** Protected-path patterns compiled once per policy. */
export interface ProtectedPaths {
  readonly patterns: readonly string[];
  /** The pattern a written word matches, if any (a word with run-time parts by its known end). */
  readonly match: (word: ShellWord) => ProtectedMatch | undefined;
}

function compilePattern(source: string): CompiledPattern {
  const anchored = source.startsWith('/');
  const parts = normalizePath(source.replace(/^\/+/, '')).split('/');
  const segments = parts.map((part): SegmentMatcher => (part === '**' ? '**' : globMatcher(part)));
  const directories: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (/[*?]/.test(part)) break;
    directories.push(part);
  }
  return { source, anchored, segments, directories };
}

/** Whether `segments` from `at` match the pattern's segments from `from` to the end. */
function matchesFrom(
  pattern: readonly SegmentMatcher[],
  from: number,
  segments: readonly string[],
  at: number,
): boolean {
  // Positions reachable in the pattern as the path is read segment by segment (linear per segment).
  let states = new Set([from]);
  const close = (set: Set<number>): Set<number> => {
    for (const index of set) if (pattern[index] === '**') set.add(index + 1);
    return set;
  };
  close(states);
  for (let index = at; index < segments.length; index++) {
    const next = new Set<number>();
    const segment = segments[index] as string;
    for (const state of states) {
      const matcher = pattern[state];
      if (matcher === undefined) continue;
      if (matcher === '**') next.add(state);
      else if (matcher(segment)) next.add(state + 1);
    }
    states = close(next);
    if (states.size === 0) return false;
  }
  return states.has(pattern.length);
}

function matchSegments(
  compiled: readonly CompiledPattern[],
  segments: readonly string[],
  absolute: boolean,
): ProtectedMatch | undefined {
  for (const pattern of compiled) {
    const starts = pattern.anchored ? (absolute ? [0] : []) : segments.map((_, index) => index);
    if (starts.some((start) => matchesFrom(pattern.segments, 0, segments, start)))
      return { pattern: pattern.source, how: 'path' };
  }
  // `cp -r hooks .git`, `mv x .vscode`: a directory that holds protected paths is written into.
  for (const pattern of compiled) {
    if (pattern.anchored || pattern.directories.length === 0) continue;
    for (let depth = 1; depth <= pattern.directories.length; depth++) {
      const tail = segments.slice(-depth);
      if (tail.length === depth && tail.every((segment, index) => segment === pattern.directories[index]))
        return { pattern: pattern.source, how: 'directory' };
    }
  }
  return undefined;
}

/** The path segments of a written word: its whole text, or its known end when it has run-time parts. */
function segmentsOf(word: ShellWord): { segments: string[]; absolute: boolean } | undefined {
  if (!word.dynamic) {
    const path = normalizePath(word.text);
    return { segments: path.split('/').filter((part) => part !== ''), absolute: path.startsWith('/') };
  }
  // `$HOME/.bashrc`, "$(pwd)/.git/hooks/x": the literal text after the last run-time part.
  const last = word.parts?.[word.parts.length - 1];
  const tail = word.parts ? (typeof last === 'string' ? last : '') : word.text;
  const slash = tail.indexOf('/');
  if (slash < 0) return undefined;
  // The first piece may end a name the run-time part starts (`$X.git/config`): not a segment.
  const path = normalizePath(tail.slice(slash));
  return { segments: path.split('/').filter((part) => part !== ''), absolute: false };
}

/**
 * Compiles protected-path patterns (for `analyzeCommandLine`'s `protectedPaths`); throws
 * `CONFIG_INVALID` naming a pattern that names no path.
 *
 * @example
 * compileProtectedPaths([...DEFAULT_PROTECTED_PATHS, 'deploy/**']);
 */
export function compileProtectedPaths(patterns: readonly string[]): ProtectedPaths {
  const compiled = patterns.map((pattern) => {
    if (typeof pattern !== 'string' || /^[./]*$/.test(pattern.trim()))
      throw new ToolError(
        'CONFIG_INVALID',
        `protected path "${String(pattern)}" names no path; use a pattern such as ".git/hooks/**" or ".envrc"`,
      );
    return compilePattern(pattern.trim());
  });
  return {
    patterns,
    match(word) {
      if (compiled.length === 0) return undefined;
      const read = segmentsOf(word);
      if (!read || read.segments.length === 0 || read.segments.length > MAX_SEGMENTS) return undefined;
      // A word with run-time parts is matched by its known end only when the whole pattern is there.
      if (word.dynamic) {
        const found = matchSegments(compiled, read.segments, false);
        return found?.how === 'path' ? found : undefined;
      }
      return matchSegments(compiled, read.segments, read.absolute);
    },
  };
}

/** The default patterns, compiled. */
export const DEFAULT_PROTECTED = compileProtectedPaths(DEFAULT_PROTECTED_PATHS);
