import { toolplaneVitestConfig } from '@toolplane/vitest-config';

// Each file starts real servers on loopback ports with their own database; the first open of
// an embedded database takes seconds on a loaded machine, so the timeouts are generous.
const config = toolplaneVitestConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    globalSetup: ['./test/helpers/global-setup.ts'],
  },
});

// The shared conditions reach the test processes as `--conditions`; `import` among them makes
// Node's own `require()` pick ESM entries of CommonJS packages (pg's `require('pg-pool')` then
// gets a module namespace, not the class). Vite adds `import` to ESM imports by itself.
const withoutImport = (conditions: string[] | undefined): string[] | undefined =>
  conditions?.filter((name) => name !== 'import');
if (config.resolve) config.resolve.conditions = withoutImport(config.resolve.conditions);
if (config.ssr?.resolve) config.ssr.resolve.conditions = withoutImport(config.ssr.resolve.conditions);

export default config;
