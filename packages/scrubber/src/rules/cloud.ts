import { ALPHABETS } from '../alphabets.js';
import { isPlaceholder, looksRandom } from '../placeholder.js';
import type { SecretRule } from '../types.js';
import { bareContexts, inContexts } from './contexts.js';

/** AWS access key ids (long-term AKIA and temporary ASIA). */
export const awsAccessKey: SecretRule = {
  id: 'aws_access_key',
  description: 'AWS access key ids: AKIA / ASIA + 16 upper-case letters and digits',
  anchors: ['AKIA', 'ASIA'],
  pattern: /(?<![A-Za-z0-9])A(?:KI|SI)A[A-Z0-9]{16}(?![A-Za-z0-9])/y,
  validate: (secret) => !isPlaceholder(secret),
  maxLength: 20,
  positives: (fake) => [
    ...inContexts(`AKIA${fake.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`, 'aws_access_key_id'),
    ...bareContexts(`ASIA${fake.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`),
  ],
  negatives: () => ['AKIAIOSFODNN7EXAMPLE', 'AKIAXXXXXXXXXXXXXXXX', 'AKIA1234', 'ASIAN_CUISINE_RESTAURANTS'],
};

/** Google API keys (Maps, Firebase, Gemini...). */
export const googleApiKey: SecretRule = {
  id: 'google_api_key',
  description: 'Google API keys: AIza + 35 characters',
  anchors: ['AIza'],
  pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/y,
  validate: (secret) => looksRandom(secret.slice(4)),
  maxLength: 39,
  positives: (fake) => [
    ...inContexts(`AIza${fake.chars(ALPHABETS.base64url, 35)}`, 'google_api_key'),
    ...bareContexts(`AIzaSy${fake.chars(ALPHABETS.base64url, 33)}`),
  ],
  negatives: () => [
    'AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
    'AIza...',
    'AIzaSyYourGoogleApiKeyGoesHere_example',
  ],
};

/** Azure storage / service bus account keys in connection strings, and SAS signatures. */
export const azureStorageKey: SecretRule = {
  id: 'azure_storage_key',
  description: 'Azure connection-string keys (AccountKey=, SharedAccessKey=) and SAS signatures (sig=)',
  anchors: ['AccountKey=', 'SharedAccessKey=', '?sig=', '&sig='],
  pattern: /(?:AccountKey|SharedAccessKey|[?&]sig)=([A-Za-z0-9+/%]{20,200}={0,2})/y,
  validate: (secret) => looksRandom(secret),
  maxLength: 230,
  positives: (fake) => {
    const key = fake.base64(64);
    const shared = fake.base64(32);
    const sig = encodeURIComponent(fake.base64(32));
    return [
      {
        text: `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${key};EndpointSuffix=core.windows.net`,
        secret: key,
      },
      {
        text: `{"conn":"Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=${shared}"}`,
        secret: shared,
      },
      {
        text: `https://acme.blob.core.windows.net/c/b.txt?sv=2022-11-02&se=2025-01-01&sp=r&sig=${sig}`,
        secret: sig,
      },
    ];
  },
  negatives: () => [
    'AccountKey=<storage-account-key>',
    'AccountKey=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx==',
    'https://example.com/?sig=short',
  ],
};
