import { toolplaneVitestConfig } from '@toolplane/vitest-config';

export default toolplaneVitestConfig({ test: { testTimeout: 240_000, hookTimeout: 240_000 } });
