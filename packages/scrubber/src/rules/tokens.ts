import { ALPHABETS } from '../alphabets.js';
import { isPlaceholder, looksRandom } from '../placeholder.js';
import type { SecretRule } from '../types.js';
import { bareContexts, inContexts } from './contexts.js';

const alnum = ALPHABETS.alnum;

/** GitHub personal, OAuth, user-to-server, server-to-server and refresh tokens, and fine-grained PATs. */
export const githubToken: SecretRule = {
  id: 'github_token',
  description:
    'GitHub tokens: ghp_, gho_, ghu_, ghs_, ghr_ (36+ characters) and github_pat_ fine-grained PATs',
  anchors: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
  pattern:
    /(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{60,240})(?![A-Za-z0-9_])/y,
  validate: (secret) => looksRandom(secret.slice(secret.indexOf('_') + 1)),
  maxLength: 255,
  positives: (fake) => [
    ...inContexts(`ghp_${fake.chars(alnum, 36)}`, 'github_token'),
    ...bareContexts(`ghs_${fake.chars(alnum, 36)}`),
    ...inContexts(`github_pat_${fake.chars(alnum, 22)}_${fake.chars(alnum, 59)}`, 'gh_pat'),
    ((token) => ({ text: `git clone https://x-access-token:${token}@github.com/o/r`, secret: token }))(
      `gho_${fake.chars(alnum, 36)}`,
    ),
  ],
  negatives: (fake) => [
    'ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'ghp_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX',
    `ghp_${fake.chars(alnum, 20)}`,
    `myghp_${fake.chars(alnum, 36)}`,
    'ghp_ is the prefix of a GitHub personal access token',
    'github_pat_<your token here>',
  ],
};

/** Anthropic API keys. */
export const anthropicKey: SecretRule = {
  id: 'anthropic_api_key',
  description: 'Anthropic API and admin keys (sk-ant-...)',
  anchors: ['sk-ant-'],
  pattern: /(?<![A-Za-z0-9_-])sk-ant-[A-Za-z0-9_-]{20,300}(?![A-Za-z0-9_-])/y,
  validate: (secret) => looksRandom(secret.slice(7)),
  maxLength: 310,
  positives: (fake) => [
    ...inContexts(`sk-ant-api03-${fake.chars(ALPHABETS.base64url, 93)}AA`, 'anthropic_api_key'),
    ...bareContexts(`sk-ant-admin01-${fake.chars(alnum, 40)}`),
  ],
  negatives: () => [
    'sk-ant-xxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'sk-ant-api03-...',
    'sk-ant-your-key-goes-right-here-please',
  ],
};

/** OpenAI API keys, legacy and project/service-account/admin forms. */
export const openaiKey: SecretRule = {
  id: 'openai_api_key',
  description: 'OpenAI API keys: sk-... (20+ characters), sk-proj-, sk-svcacct-, sk-admin-',
  anchors: ['sk-'],
  pattern: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,300}(?![A-Za-z0-9_-])/y,
  validate: (secret) => looksRandom(secret.slice(3)) && !/^sk-[a-z]+(?:-[a-z]+)+$/.test(secret),
  maxLength: 310,
  positives: (fake) => [
    ...inContexts(`sk-${fake.chars(alnum, 48)}`, 'openai_api_key'),
    ...bareContexts(
      `sk-proj-${fake.chars(ALPHABETS.base64url, 74)}T3BlbkFJ${fake.chars(ALPHABETS.base64url, 74)}`,
    ),
  ],
  negatives: (fake) => [
    'sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'sk-this-is-a-very-long-slug-name-for-css',
    `task-${fake.chars(alnum, 30)}`,
    `sk-${fake.chars(alnum, 12)}`,
    'risk-management-framework-document',
  ],
};

/** Hugging Face user access tokens. */
export const huggingfaceToken: SecretRule = {
  id: 'huggingface_token',
  description: 'Hugging Face access tokens (hf_ + 30-40 letters/digits)',
  anchors: ['hf_'],
  pattern: /(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,40}(?![A-Za-z0-9_])/y,
  validate: (secret) => looksRandom(secret.slice(3)),
  maxLength: 44,
  positives: (fake) => [
    ...inContexts(`hf_${fake.chars(ALPHABETS.letters, 34)}`, 'hf_token'),
    ...bareContexts(`hf_${fake.chars(ALPHABETS.letters, 34)}`),
  ],
  negatives: () => [
    'hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'hf_hub_download_from_the_cache_dir',
    'self.hf_config_name_or_path_value',
  ],
};

/** npm access tokens. */
export const npmToken: SecretRule = {
  id: 'npm_token',
  description: 'npm access tokens (npm_ + 36 characters)',
  anchors: ['npm_'],
  pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/y,
  validate: (secret) => looksRandom(secret.slice(4)),
  maxLength: 40,
  positives: (fake) => [
    ...inContexts(`npm_${fake.chars(alnum, 36)}`, 'npm_token'),
    ((token) => ({ text: `//registry.npmjs.org/:_authToken=${token}\n`, secret: token }))(
      `npm_${fake.chars(alnum, 36)}`,
    ),
  ],
  negatives: () => [
    'npm_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'npm_config_registry_url_override_value',
    'process.env.npm_package_version',
  ],
};

/** PyPI upload tokens (macaroons). */
export const pypiToken: SecretRule = {
  id: 'pypi_token',
  description: 'PyPI and TestPyPI API tokens (pypi-AgEIcHlwaS5vcmc... / pypi-AgENdGVzdC5weXBpLm9yZw...)',
  anchors: ['pypi-AgEIcHlwaS5vcmc', 'pypi-AgENdGVzdC5weXBpLm9yZw'],
  pattern:
    /(?<![A-Za-z0-9_-])pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,400}(?![A-Za-z0-9_-])/y,
  maxLength: 430,
  positives: (fake) => [
    ...inContexts(`pypi-AgEIcHlwaS5vcmc${fake.chars(ALPHABETS.base64url, 160)}`, 'pypi_token'),
    ...bareContexts(`pypi-AgENdGVzdC5weXBpLm9yZw${fake.chars(ALPHABETS.base64url, 120)}`),
  ],
  negatives: () => ['pypi-AgEIcHlwaS5vcmc', 'pypi-token-goes-here', 'pypi-AgEIcHlwaS5vcmc...'],
};

/** GitLab personal, deploy, runner, pipeline-trigger and other tokens. */
export const gitlabToken: SecretRule = {
  id: 'gitlab_token',
  description: 'GitLab tokens: glpat-, gldt-, glrt-, glptt-, glft-, glsoat-, glcbt-',
  anchors: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glft-', 'glsoat-', 'glcbt-'],
  pattern: /(?<![A-Za-z0-9_-])gl(?:pat|dt|rt|ptt|ft|soat|cbt)-[A-Za-z0-9_.-]{20,120}(?![A-Za-z0-9_.-])/y,
  validate: (secret) => looksRandom(secret.slice(secret.indexOf('-') + 1)),
  maxLength: 130,
  positives: (fake) => [
    ...inContexts(`glpat-${fake.chars(`${alnum}_-`, 20)}`, 'gitlab_token'),
    ...bareContexts(`glptt-${fake.chars(ALPHABETS.hex, 40)}`),
  ],
  negatives: () => ['glpat-xxxxxxxxxxxxxxxxxxxx', 'glpat-your-token-goes-in-here', 'glrt-'],
};

/** Slack bot, user, app-level and refresh tokens. */
export const slackToken: SecretRule = {
  id: 'slack_token',
  description: 'Slack tokens: xoxb-, xoxp-, xoxa-, xoxo-, xoxs-, xoxr-, xoxe-, xoxe.xoxp-, xapp-',
  anchors: ['xoxb-', 'xoxp-', 'xoxa-', 'xoxo-', 'xoxs-', 'xoxr-', 'xoxe-', 'xoxe.xoxp-', 'xapp-'],
  pattern: /(?<![A-Za-z0-9_-])(?:xox[abposre]|xoxe\.xoxp|xapp)-[A-Za-z0-9-]{20,250}(?![A-Za-z0-9-])/y,
  validate: (secret) => looksRandom(secret.slice(secret.indexOf('-') + 1)) && !isPlaceholder(secret),
  maxLength: 265,
  positives: (fake) => [
    ...inContexts(
      `xoxb-${fake.chars(ALPHABETS.digits, 12)}-${fake.chars(ALPHABETS.digits, 13)}-${fake.chars(alnum, 24)}`,
      'slack_bot_token',
    ),
    ...bareContexts(
      `xapp-1-A${fake.chars(ALPHABETS.upperDigits, 10)}-${fake.chars(ALPHABETS.digits, 13)}-${fake.chars(ALPHABETS.hex, 64)}`,
    ),
  ],
  negatives: () => [
    'xoxb-xxxxxxxxxxxx-xxxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx',
    'xoxb-your-bot-token-here',
    'xoxb-',
  ],
};
