// Options of createMcpProvider that cannot be used (a restart policy missing a field, a delay no
// timer can hold, a callback that is not a function) are CONFIG_INVALID naming the option, at
// creation, before any server starts.
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RESTART_POLICY } from '../src/index.js';
import { tempDirectory } from './helpers/index.js';
import { creationErrorIn } from './helpers/creation-error.js';

const run = tempDirectory();
afterAll(() => run.remove());

const thrownBy = creationErrorIn(run.path);

describe('options of createMcpProvider of the wrong shape', () => {
  it('a restartPolicy missing a field or holding a bad one is CONFIG_INVALID naming it, at creation', () => {
    const cases: ReadonlyArray<readonly [unknown, string, RegExp]> = [
      [
        { maxRestarts: 2 },
        'restartPolicy.backoffMs',
        /is missing: give all four fields.*\.\.\.DEFAULT_RESTART_POLICY/,
      ],
      [{ ...DEFAULT_RESTART_POLICY, backoffMs: [] }, 'restartPolicy.backoffMs', /at least one delay/],
      [{ ...DEFAULT_RESTART_POLICY, backoffMs: [0, -1] }, 'restartPolicy.backoffMs[1]', /0 to 2147483647/],
      [
        { ...DEFAULT_RESTART_POLICY, maxRestarts: Number.NaN },
        'restartPolicy.maxRestarts',
        /whole number of 0 or more/,
      ],
      [
        { ...DEFAULT_RESTART_POLICY, crashWindowMs: '60s' },
        'restartPolicy.crashWindowMs',
        /whole number of 0 or more/,
      ],
      [
        { ...DEFAULT_RESTART_POLICY, maxRestart: 3 },
        'restartPolicy.maxRestart',
        /did you mean maxRestarts\?/,
      ],
      ['fast', 'restartPolicy', /must be an object/],
    ];
    for (const [restartPolicy, field, message] of cases) {
      expect(thrownBy({ command: 'node' }, { restartPolicy }), field).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(message),
        details: { server: 'checked', field },
      });
    }
    expect(
      thrownBy({ command: 'node' }, { restartPolicy: { ...DEFAULT_RESTART_POLICY, maxRestarts: 1 } }),
    ).toBeUndefined();
  });

  it('a killGraceMs, directory or callback of the wrong shape is CONFIG_INVALID naming it', () => {
    const cases: ReadonlyArray<readonly [Record<string, unknown>, string, RegExp]> = [
      [{ killGraceMs: -1 }, 'killGraceMs', /0 to 2147483647/],
      [{ killGraceMs: 2 ** 31 }, 'killGraceMs', /0 to 2147483647/],
      [{ runDirectory: '' }, 'runDirectory', /must be a directory path/],
      [{ toolCacheDirectory: 42 }, 'toolCacheDirectory', /must be a directory path/],
      [{ onEvent: 'log' }, 'onEvent', /must be a function/],
      [{ sessionFactory: {} }, 'sessionFactory', /must be a function/],
      [{ registry: {} }, 'registry', /createSharedRegistry/],
    ];
    for (const [options, field, message] of cases) {
      expect(thrownBy({ command: 'node' }, options), field).toMatchObject({
        code: 'CONFIG_INVALID',
        message: expect.stringMatching(message),
        details: { server: 'checked', field },
      });
    }
  });
});
