import { ALPHABETS } from '../alphabets.js';
import { looksRandom } from '../placeholder.js';
import type { SecretRule } from '../types.js';
import { bareContexts, inContexts } from './contexts.js';

const alnum = ALPHABETS.alnum;

/** Stripe secret and restricted keys, and webhook signing secrets. */
export const stripeKey: SecretRule = {
  id: 'stripe_key',
  description:
    'Stripe secret/restricted keys (sk_live_, sk_test_, rk_live_, rk_test_) and webhook secrets (whsec_)',
  anchors: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'whsec_'],
  pattern:
    /(?<![A-Za-z0-9_])(?:[sr]k_(?:live|test)_[A-Za-z0-9]{16,247}|whsec_[A-Za-z0-9+/=]{32,100})(?![A-Za-z0-9_])/y,
  validate: (secret) => looksRandom(secret.slice(secret.lastIndexOf('_') + 1)),
  maxLength: 260,
  positives: (fake) => [
    ...inContexts(`sk_live_${fake.chars(alnum, 99)}`, 'stripe_secret_key'),
    ...bareContexts(`rk_test_${fake.chars(alnum, 24)}`),
    ...bareContexts(`whsec_${fake.chars(alnum, 32)}`),
  ],
  negatives: () => [
    'sk_live_xxxxxxxxxxxxxxxxxxxxxxxx',
    'sk_test_...',
    'is_live_stream_enabled_for_user',
    'sk_live_your_key_here_please',
  ],
};

/** Twilio API key SIDs with secret context (SK + 32 hex). */
export const twilioApiKey: SecretRule = {
  id: 'twilio_api_key',
  description: 'Twilio API keys: SK + 32 hex characters',
  anchors: ['SK'],
  pattern: /(?<![A-Za-z0-9])SK[0-9a-fA-F]{32}(?![A-Za-z0-9])/y,
  validate: (secret) => looksRandom(secret.slice(2)),
  maxLength: 34,
  positives: (fake) => [...inContexts(`SK${fake.chars(ALPHABETS.hex, 32)}`, 'twilio_api_key')],
  negatives: () => [
    'SKxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'SK00000000000000000000000000000000',
    'SKIPPED_TESTS_COUNT',
    'SKU1234',
  ],
};

/** SendGrid API keys. */
export const sendgridKey: SecretRule = {
  id: 'sendgrid_api_key',
  description: 'SendGrid API keys: SG.<22>.<43>',
  anchors: ['SG.'],
  pattern: /(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/y,
  validate: (secret) => looksRandom(secret.slice(3)),
  maxLength: 69,
  positives: (fake) => [
    ...inContexts(
      `SG.${fake.chars(ALPHABETS.base64url, 22)}.${fake.chars(ALPHABETS.base64url, 43)}`,
      'sendgrid_api_key',
    ),
  ],
  negatives: () => [
    'SG.xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'SG.setApiKey(key)',
    'SG.',
  ],
};
