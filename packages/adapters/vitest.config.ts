import { toolplaneVitestConfig } from '@toolplane/vitest-config';

export default toolplaneVitestConfig();
