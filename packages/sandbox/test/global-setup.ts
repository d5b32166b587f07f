import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dockerProblem } from './helpers/engines.js';

const script = fileURLToPath(new URL('../../../tooling/ci/sandbox-engines.sh', import.meta.url));

/** Starts the Docker engine and builds the test image when they are missing (as .ci/run does). */
export default async function setup(): Promise<void> {
  const problem = await dockerProblem();
  if (problem === undefined || !existsSync(script) || process.getuid?.() !== 0) return;
  try {
    execFileSync('bash', [script], { stdio: 'inherit', timeout: 300_000 });
  } catch (error) {
    console.warn(`sandbox-engines.sh failed: ${(error as Error).message}`);
  }
}
