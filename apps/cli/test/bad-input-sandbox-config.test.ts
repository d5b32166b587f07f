import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers.js';

// The `sandbox:` section is checked when the config is read, every problem at its line.

async function validate(yaml: string): Promise<{ code: number | null; text: string }> {
  const work = await tempDir();
  try {
    await writeFile(join(work.path, 'toolplane.config.yaml'), yaml);
    const outcome = await runCli(['config', 'validate'], { cwd: work.path });
    return { code: outcome.code, text: outcome.stdout + outcome.stderr };
  } finally {
    await work.cleanup();
  }
}

describe('a bad sandbox section', () => {
  it('names a misspelled kind or key with the one it is closest to, and bad limits', async () => {
    const { code, text } = await validate(
      [
        'builtin: { workspace: ., tools: [bash] }',
        'sandbox:',
        '  kind: dokcer',
        '  imgae: x',
        '  limits: { memory: 1k, cpus: 0, pids: 2, swpa: 1 }',
        '  network: { allow: ["https://example.com"] }',
        '',
      ].join('\n'),
    );
    expect(code).toBe(2);
    expect(text).toMatch(
      /toolplane\.config\.yaml:3:3 +sandbox\.kind +kind is one of docker, bwrap, host: did you mean docker\?/,
    );
    expect(text).toMatch(/:4:3 +sandbox\.imgae +unknown field "imgae": did you mean image\?/);
    expect(text).toMatch(/sandbox\.limits\.memory +at least 6 MiB/);
    expect(text).toMatch(/sandbox\.limits\.cpus /);
    expect(text).toMatch(/sandbox\.limits\.pids +at least 8/);
    expect(text).toMatch(/sandbox\.limits\.swpa +unknown field "swpa"/);
    expect(text).toMatch(/sandbox\.network\.allow\[0\] +a host name/);
  });

  it('refuses options of another kind and autoAllow where nothing contains the commands', async () => {
    const bwrap = await validate(
      'builtin: { workspace: ., tools: [bash] }\nsandbox: { kind: bwrap, image: x, autoAllow: true, fallback: host }\n',
    );
    expect(bwrap.code).toBe(2);
    expect(bwrap.text).toMatch(/sandbox\.image +image applies to kind: docker only/);
    expect(bwrap.text).toMatch(/sandbox\.autoAllow +autoAllow needs fallback: fail/);
    const host = await validate('sandbox: { autoAllow: true }\n');
    expect(host.code).toBe(2);
    expect(host.text).toMatch(/sandbox\.autoAllow +autoAllow needs a sandbox \(kind: docker or bwrap\)/);
  });

  it('accepts sizes with units and a network allow-list', async () => {
    const { code, text } = await validate(
      'builtin: { workspace: ., tools: [bash] }\nsandbox: { kind: docker, limits: { memory: 1.5g, tmp: 64MiB, cpus: 0.5, pids: 64 }, network: { allow: [registry.npmjs.org, "*.github.com"] }, idleMs: 60000 }\n',
    );
    expect(text).not.toMatch(/problem/);
    expect(code).toBe(0);
  });
});
