import { toolplaneVitestConfig } from '@toolplane/vitest-config';

export default toolplaneVitestConfig({ test: { globalSetup: ['test/global-setup.ts'] } });
