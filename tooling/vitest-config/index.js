// Shared vitest setup: tests read package sources through the `@toolplane/source` export
// condition, so nothing has to be built before `pnpm test`.
import { defineConfig, mergeConfig } from 'vitest/config';

const conditions = ['@toolplane/source', 'node', 'import', 'module', 'default'];

/** @param {import('vitest/config').UserConfig} [overrides] */
export function toolplaneVitestConfig(overrides = {}) {
  return mergeConfig(
    defineConfig({
      resolve: { conditions },
      ssr: { resolve: { conditions, externalConditions: ['@toolplane/source'] } },
      test: {
        environment: 'node',
        include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
        testTimeout: 120_000,
        hookTimeout: 120_000,
        pool: 'forks',
      },
    }),
    overrides,
  );
}
