import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

// A Kubernetes Secret's `data` values (base64) and `stringData` values are secret by definition,
// whatever their keys are called: `DATABASE_URL`, `config.json`, `username`.

const fake = createFakeSource();
const scrubber = createScrubber();
const base64 = (text: string) => Buffer.from(text).toString('base64');
const word = () => fake.chars(ALPHABETS.alnum, 18);

function streamAll(text: string, cut: number): string {
  const stream = scrubber.createStreamScrubber();
  let out = '';
  for (let at = 0; at < text.length; at += cut) out += stream.write(text.slice(at, at + cut));
  return out + stream.flush();
}

async function roundTrip(name: string, content: string): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'scrubber-k8s-'));
  try {
    await writeFile(join(directory, name), content);
    return await readFile(join(directory, name), 'utf8');
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

describe('Kubernetes Secret manifests', () => {
  it('redacts every data and stringData value of a hand-written YAML manifest, keys kept', async () => {
    const url = base64(`postgres://app:${word()}@db:5432/app`);
    const config = base64(`{"endpoint":"https://api","key":"${word()}"}`);
    const [plain, block, quoted] = [word(), word(), word()];
    const manifest = await roundTrip(
      'secret.yaml',
      [
        'apiVersion: v1',
        'kind: Secret',
        'metadata:',
        '  name: app-env',
        '  labels:',
        '    app: web',
        'type: Opaque',
        'data:',
        `  DATABASE_URL: ${url}`,
        `  config.json: ${config}`,
        'stringData:',
        `  username: ${plain}`,
        '  settings.ini: |',
        '    [server]',
        `    key = ${block}`,
        `  "api.endpoint": "${quoted}"`,
        '---',
        'apiVersion: v1',
        'kind: ConfigMap',
        'data:',
        '  LOG_LEVEL: debug',
        '',
      ].join('\n'),
    );
    const { text, findings } = scrubber.scrub(manifest);
    for (const value of [url, config, plain, block, quoted]) expect(text).not.toContain(value);
    expect(text).toContain('data:\n  DATABASE_URL: [REDACTED:secret]\n  config.json: [REDACTED:secret]\n');
    expect(text).toContain('  username: [REDACTED:secret]\n  settings.ini: |\n    [REDACTED:');
    expect(text).toContain('  "api.endpoint": "[REDACTED:secret]"\n---\n');
    expect(text).toContain('  name: app-env\n');
    expect(text).toContain('kind: ConfigMap\ndata:\n  LOG_LEVEL: debug\n');
    expect(findings.length).toBe(5);
    for (const cut of [5, 64, 1000]) expect(streamAll(manifest, cut), `chunks of ${cut}`).toBe(text);
  });

  it('redacts data printed before kind, as kubectl get -o yaml prints a List, annotation included', async () => {
    const [first, second, third] = [base64(word()), base64(word()), base64(word())];
    const applied = `{"apiVersion":"v1","data":{"token.txt":"${first}"},"kind":"Secret","metadata":{"name":"a"}}`;
    const output = await roundTrip(
      'list.yaml',
      [
        'apiVersion: v1',
        'items:',
        '- apiVersion: v1',
        '  data:',
        `    token.txt: ${first}`,
        `    ca.crt: ${second}`,
        '  kind: Secret',
        '  metadata:',
        '    annotations:',
        `      kubectl.kubernetes.io/last-applied-configuration: |\n        ${applied}`,
        '    name: a',
        '  type: Opaque',
        '- apiVersion: v1',
        '  data:',
        `    token.txt: ${third}`,
        '  kind: ConfigMap',
        'kind: List',
        '',
      ].join('\n'),
    );
    const text = scrubber.scrubText(output);
    expect(text).not.toContain(first);
    expect(text).not.toContain(second);
    expect(text).toContain(`    token.txt: ${third}\n  kind: ConfigMap`);
    expect(text).toContain('{"apiVersion":"v1","data":{"token.txt":"[REDACTED:secret]"},"kind"');
  });

  it('redacts data and stringData of JSON manifests (kubectl get -o json), one-shot and streamed', async () => {
    const [first, second, plain] = [base64(word()), base64(word()), word()];
    const secret = {
      apiVersion: 'v1',
      data: { 'app.properties': first, DSN: second },
      kind: 'Secret',
      metadata: { name: 'db', namespace: 'prod' },
      stringData: { user: plain },
      type: 'Opaque',
    };
    const configMap = { apiVersion: 'v1', data: { mode: base64(word()) }, kind: 'ConfigMap' };
    const json = await roundTrip('list.json', JSON.stringify({ items: [secret, configMap] }, null, 4));
    const text = scrubber.scrubText(json);
    for (const value of [first, second, plain]) expect(text).not.toContain(value);
    expect(text).toContain('"DSN": "[REDACTED:secret]"');
    expect(text).toContain(configMap.data.mode);
    expect(JSON.parse(text).items[0].metadata).toEqual({ name: 'db', namespace: 'prod' });
    for (const cut of [7, 300]) expect(streamAll(json, cut), `chunks of ${cut}`).toBe(text);
    // As a structured value (a tool's structuredContent) too: still the same shape.
    const value = scrubber.scrubValue(secret);
    expect(value.data).toEqual({ 'app.properties': '[REDACTED:secret]', DSN: '[REDACTED:secret]' });
    expect(value.stringData).toEqual({ user: '[REDACTED:secret]' });
  });

  it('keeps a credential key name as the kind, and leaves other kinds and templates alone', () => {
    const password = `${fake.chars(ALPHABETS.alnum, 10)}!${fake.chars(ALPHABETS.digits, 2)}`;
    expect(scrubber.scrubText(`kind: Secret\nstringData:\n  password: ${password}\n`)).toBe(
      'kind: Secret\nstringData:\n  password: [REDACTED:password]\n',
    );
    // A text that begins with a line break (a stream's context often does) is read back to its start.
    expect(scrubber.scrubText('\nkind: Secret\ndata:\n  a: b1c2d3\n')).toBe(
      '\nkind: Secret\ndata:\n  a: [REDACTED:secret]\n',
    );
    for (const text of [
      'kind: SecretProviderClass\nspec:\n  data:\n    objects: x1y2z3w4\n',
      'kind: ConfigMap\ndata:\n  token.txt: bm90LWEtc2VjcmV0\n',
      '{"kind":"ConfigMap","data":{"mode":"ZmFzdA=="}}',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template reference is the sample
      'kind: Secret\nstringData:\n  DATABASE_URL: ${DATABASE_URL}\n',
      'kind: Secret\ndata: {}\n',
      'the kind: Secret of objects holds data: values',
    ])
      expect(scrubber.scrub(text).findings, text).toEqual([]);
  });

  it('reads hostile manifests in linear time: 4 MB of kind and data keys, still redacting after them', () => {
    const url = base64(`postgres://app:${word()}@db/app`);
    const tail = `\napiVersion: v1\nkind: Secret\ndata:\n  DATABASE_URL: ${url}\n`;
    const hostile = [
      'kind: Secret\n'.repeat(300_000),
      'kind: Secret\ndata:\n'.repeat(200_000),
      '{"kind":"Secret","data":{'.repeat(160_000),
      `${' '.repeat(40)}data:\n`.repeat(90_000),
      '- kind: Secret\n  stringData:\n'.repeat(120_000),
      // One object of 150,000 `data` blocks: each value's line is read, never the text after it.
      'kind: Secret\ndata:\n  a: b1c2d3\n'.repeat(150_000),
    ];
    for (const text of hostile) {
      const scrubbed = scrubber.scrubText(`${text}\n---${tail}`);
      expect(scrubbed.endsWith('DATABASE_URL: [REDACTED:secret]\n'), text.slice(0, 30)).toBe(true);
    }
    const big = `{"kind":"Secret","data":{${Array.from({ length: 100_000 }, (_, i) => `"k${i}":"${url}"`).join(',')}}}`;
    const { findings } = scrubber.scrub(big);
    expect(findings.length).toBe(100_000);
  });
});
