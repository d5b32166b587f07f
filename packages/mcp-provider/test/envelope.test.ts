import { expect, it } from 'vitest';
import { parseEnvelope } from '../src/transport/envelope.js';

it('passes one message or a batch through, checking only the envelope', () => {
  expect(parseEnvelope('{"jsonrpc":"2.0","id":1,"result":{}}')).toEqual([
    { jsonrpc: '2.0', id: 1, result: {} },
  ]);
  // an error with id null (a peer that could not read our id) still reaches the client
  expect(parseEnvelope('{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"x"}}')).toHaveLength(1);
  expect(
    parseEnvelope('[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":"b","result":{}}]').map((message) =>
      'id' in message ? message.id : 'notification',
    ),
  ).toEqual(['notification', 'b']);
});

it('refuses what is not JSON-RPC 2.0', () => {
  expect(() => parseEnvelope('not json')).toThrow();
  expect(() => parseEnvelope('[]')).toThrow(/empty/);
  expect(() => parseEnvelope('{"jsonrpc":"1.0","id":1}')).toThrow(/2\.0/);
  expect(() => parseEnvelope('[{"jsonrpc":"2.0","method":"a"},42]')).toThrow(/2\.0/);
  expect(() => parseEnvelope('null')).toThrow(/2\.0/);
});
