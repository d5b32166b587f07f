// Elicitation from a real SDK server during a tool call, on both clients, over stdio and
// streamable HTTP: the capability declared only with a channel, form defaults (SEP-1034), the
// four enum shapes (SEP-1330), URL mode, answers checked against the schema, headless refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ElicitationChannel, ElicitationRequest } from '../src/index.js';
import { PATHS, askingHttpServer, askingProvider, callText } from './helpers/asking-providers.js';
import { eventLog, tempDirectory } from './helpers/index.js';

const run = tempDirectory();
const http = askingHttpServer();
beforeAll(() => http.start(), 30_000);
afterAll(async () => {
  await http.close();
  run.remove();
});

/** A channel that records what it was asked and answers with `answer(request)`. */
function recordingChannel(
  answer: (request: ElicitationRequest) => Awaited<ReturnType<ElicitationChannel['elicit']>>,
  modes?: ElicitationChannel['modes'],
): ElicitationChannel & { asked: ElicitationRequest[] } {
  const asked: ElicitationRequest[] = [];
  return {
    asked,
    ...(modes ? { modes } : {}),
    async elicit(request) {
      asked.push(request);
      return answer(request);
    },
  };
}

for (const path of PATHS) {
  describe(`elicitation (client ${path.client}, ${path.transport})`, () => {
    it('declares form mode with defaults only when a channel is given, and fills the defaults of fields left out', async () => {
      const channel = recordingChannel(() => ({ action: 'accept', content: { name: 'Ada' } }));
      const provider = await askingProvider(path, http.url, { runDirectory: run.path, elicitation: channel });
      const bare = await askingProvider(path, http.url, { runDirectory: run.path });
      try {
        expect(JSON.parse(await callText(provider, 'capabilities'))).toEqual({
          elicitation: { form: { applyDefaults: true } },
        });
        expect(JSON.parse(await callText(bare, 'capabilities'))).toEqual({});
        const answer = JSON.parse(await callText(provider, 'elicit_form', { form: 'defaults' }));
        expect(answer).toEqual({
          action: 'accept',
          content: { name: 'Ada', age: 30, score: 95.5, status: 'active', verified: true },
        });
        const request = channel.asked[0];
        expect(request?.mode === 'form' && request.message).toBe('fill in defaults');
        expect(
          request?.mode === 'form' && request.fields.map((field) => [field.name, field.kind, field.default]),
        ).toEqual([
          ['name', 'string', 'John Doe'],
          ['age', 'integer', 30],
          ['score', 'number', 95.5],
          ['status', 'choice', 'active'],
          ['verified', 'boolean', true],
        ]);
      } finally {
        await Promise.all([provider.close?.(), bare.close?.()]);
      }
    }, 60_000);

    it('reads titled and untitled single and multi-select enums and sends the chosen values', async () => {
      const channel = recordingChannel(() => ({
        action: 'accept',
        content: { untitledSingle: 'green', titledSingle: 'g', legacyTitled: 'm', untitledMulti: ['a', 'c'] },
      }));
      const provider = await askingProvider(path, http.url, { runDirectory: run.path, elicitation: channel });
      try {
        const answer = JSON.parse(await callText(provider, 'elicit_form', { form: 'enums' }));
        expect(answer).toEqual({
          action: 'accept',
          content: {
            untitledSingle: 'green',
            titledSingle: 'g',
            legacyTitled: 'm',
            untitledMulti: ['a', 'c'],
            titledMulti: ['x'],
          },
        });
        const request = channel.asked[0];
        const fields = request?.mode === 'form' ? request.fields : [];
        expect(fields.map((field) => [field.name, field.kind, field.options])).toEqual([
          ['untitledSingle', 'choice', ['red', 'green', 'blue'].map((value) => ({ value, title: value }))],
          [
            'titledSingle',
            'choice',
            [
              { value: 'r', title: 'Red' },
              { value: 'g', title: 'Green' },
            ],
          ],
          [
            'legacyTitled',
            'choice',
            [
              { value: 's', title: 'Small' },
              { value: 'm', title: 'Medium' },
            ],
          ],
          ['untitledMulti', 'choices', ['a', 'b', 'c'].map((value) => ({ value, title: value }))],
          [
            'titledMulti',
            'choices',
            [
              { value: 'x', title: 'Ex' },
              { value: 'y', title: 'Why' },
            ],
          ],
        ]);
        expect(fields.find((field) => field.name === 'untitledMulti')?.maxItems).toBe(2);
      } finally {
        await provider.close?.();
      }
    }, 60_000);

    it('refuses an answer that breaks the schema, naming the fields and never the values', async () => {
      const typed = `typed-${Math.random().toString(36).slice(2)}`;
      const log = eventLog();
      const channel = recordingChannel(() => ({
        action: 'accept',
        content: { untitledSingle: typed, titledSingle: 'g', untitledMulti: ['a', 'b', 'c'] },
      }));
      const provider = await askingProvider(path, http.url, {
        runDirectory: run.path,
        elicitation: channel,
        onEvent: log.onEvent,
      });
      try {
        const text = await callText(provider, 'elicit_form', { form: 'enums' });
        expect(text).toMatch(/^error -32603 .*does not match the requested schema/);
        expect(text).toContain('untitledSingle: must be one of the choices offered');
        expect(text).toContain('untitledMulti: must choose at most 2');
        expect(text).not.toContain(typed);
        const answered = log.events.filter((event) => event.type === 'elicitation-answered');
        expect(answered).toEqual([
          expect.objectContaining({ action: 'invalid', mode: 'form', server: 'asks' }),
        ]);
        expect(JSON.stringify(log.events)).not.toContain(typed);
      } finally {
        await provider.close?.();
      }
    }, 60_000);

    it('refuses nested objects and a 50,000-choice enum at once, and the session serves on', async () => {
      const channel = recordingChannel(() => ({ action: 'accept', content: {} }));
      const provider = await askingProvider(path, http.url, { runDirectory: run.path, elicitation: channel });
      try {
        expect(await callText(provider, 'elicit_form', { form: 'nested' })).toMatch(
          /^error -32602 .*elicitation refused: field "address" is of type "object", which a form cannot hold/,
        );
        expect(await callText(provider, 'elicit_form', { form: 'huge-enum' })).toMatch(
          /^error -32602 .*(more than 1000|more than 65536)/,
        );
        expect(channel.asked).toHaveLength(0);
        expect(JSON.parse(await callText(provider, 'elicit_form', { form: 'defaults' })).action).toBe(
          'accept',
        );
      } finally {
        await provider.close?.();
      }
    }, 60_000);

    it('answers URL mode when the channel offers it, and refuses it when not', async () => {
      const both = recordingChannel(() => ({ action: 'accept' }), ['form', 'url']);
      const formOnly = recordingChannel(() => ({ action: 'accept' }));
      const provider = await askingProvider(path, http.url, { runDirectory: run.path, elicitation: both });
      const limited = await askingProvider(path, http.url, { runDirectory: run.path, elicitation: formOnly });
      try {
        expect(JSON.parse(await callText(provider, 'capabilities')).elicitation).toEqual({
          form: { applyDefaults: true },
          url: {},
        });
        expect(JSON.parse(await callText(provider, 'elicit_url'))).toEqual({ action: 'accept' });
        expect(both.asked[0]).toEqual(
          expect.objectContaining({ mode: 'url', url: 'https://example.com/login', message: 'sign in' }),
        );
        expect(await callText(limited, 'elicit_url')).toMatch(/^error -32602 .*URL/);
        expect(formOnly.asked).toHaveLength(0);
      } finally {
        await Promise.all([provider.close?.(), limited.close?.()]);
      }
    }, 60_000);

    it('declines at once without a channel, saying that nobody can answer', async () => {
      const provider = await askingProvider(path, http.url, { runDirectory: run.path });
      try {
        expect(await callText(provider, 'elicit_form', { form: 'defaults' })).toMatch(
          /^error -32601 .*elicitation\/create declined: .*no elicitation channel is configured \(this client runs headless\)/,
        );
      } finally {
        await provider.close?.();
      }
    }, 60_000);
  });
}
