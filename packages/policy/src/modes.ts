import type { PermissionMode, SessionInfo } from '@toolplane/core';

/** Modes from most to least permissive. */
const PERMISSIVENESS: Readonly<Record<PermissionMode, number>> = {
  bypass: 3,
  'accept-edits': 2,
  default: 1,
  plan: 0,
};

/** All permission modes. */
export const PERMISSION_MODES: readonly PermissionMode[] = ['default', 'accept-edits', 'plan', 'bypass'];

/** The stricter of two modes (`plan` is the strictest, `bypass` the least strict). */
export function stricterMode(a: PermissionMode, b: PermissionMode): PermissionMode {
  return PERMISSIVENESS[a] <= PERMISSIVENESS[b] ? a : b;
}

const MAX_SESSIONS = 10_000;

/**
 * Remembers each session's effective mode so a child session (one with `parentId`) never runs
 * in a more permissive mode than its parent: children inherit their parent's mode and may only
 * narrow it.
 */
export function createModeTracker(fallback: PermissionMode): (session: SessionInfo) => PermissionMode {
  const modes = new Map<string, PermissionMode>();
  return (session) => {
    const parent = session.parentId === undefined ? undefined : modes.get(session.parentId);
    let mode = session.mode ?? parent ?? fallback;
    if (!Object.hasOwn(PERMISSIVENESS, mode)) mode = 'default';
    if (parent) mode = stricterMode(mode, parent);
    if (modes.get(session.id) !== mode) {
      modes.delete(session.id);
      modes.set(session.id, mode);
      if (modes.size > MAX_SESSIONS) modes.delete(modes.keys().next().value as string);
    }
    return mode;
  };
}
