import { describe, expect, it } from 'vitest';
import * as sandbox from '../src/index.js';
import * as testing from '../src/testing/index.js';

describe('@toolplane/sandbox exports', () => {
  it('exports exactly its public API from the root', () => {
    expect(Object.keys(sandbox).sort()).toEqual(
      [
        'CONTAINER_WORKSPACE',
        'DEFAULT_DOCKER_IMAGE',
        'DEFAULT_LIMITS',
        'DEFAULT_MAX_OUTPUT_BYTES',
        'DEFAULT_PROTECTED_PATHS',
        'DEFAULT_SANDBOX_KEY',
        'DEFAULT_SANDBOX_TIMEOUT_MS',
        'DEFAULT_SYSTEM_PATHS',
        'cgroupsAvailable',
        'createBwrapExecutor',
        'createDockerExecutor',
        'createSandboxExecutor',
        'isSandboxUnavailable',
        'sandboxError',
        'sandboxFailureCode',
        'withHostFallback',
      ].sort(),
    );
  });

  it('exports the shared executor contract suite from ./testing', () => {
    expect(Object.keys(testing).sort()).toEqual(['describeExecutorContract']);
  });
});
