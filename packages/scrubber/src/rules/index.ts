import type { SecretRule } from '../types.js';
import { assignment } from './assignment.js';
import { ciMask } from './ci-mask.js';
import { commandCredentials } from './command-credentials.js';
import { cookie } from './cookies.js';
import { curlCredentials } from './curl-credentials.js';
import { netrc } from './netrc.js';
import { oracleConnect } from './oracle-connect.js';
import { markupCredentials } from './markup.js';
import { pgpass } from './pgpass.js';
import { sqlPassword } from './sql.js';
import { positionalCredentials } from './positional-credentials.js';
import { envPair } from './env-pairs.js';
import { kubernetesSecret } from './kubernetes-secret.js';
import { awsAccessKey, azureStorageKey, googleApiKey } from './cloud.js';
import { sendgridKey, stripeKey, twilioApiKey } from './saas.js';
import { encodedPrivateKey } from './encoded-private-key.js';
import { jwt, privateKey, slackWebhook, urlPassword, urlToken } from './structured.js';
import {
  anthropicKey,
  githubToken,
  gitlabToken,
  huggingfaceToken,
  npmToken,
  openaiKey,
  pypiToken,
  slackToken,
} from './tokens.js';

/**
 * The built-in rules, most specific first: when two rules match the same span, the earlier one
 * names the kind. The context rule `assignment` comes last but for `kubernetes_secret`.
 */
export const DEFAULT_RULES: readonly SecretRule[] = [
  privateKey,
  encodedPrivateKey,
  githubToken,
  anthropicKey,
  openaiKey,
  awsAccessKey,
  googleApiKey,
  azureStorageKey,
  slackWebhook,
  slackToken,
  stripeKey,
  twilioApiKey,
  sendgridKey,
  npmToken,
  pypiToken,
  huggingfaceToken,
  gitlabToken,
  jwt,
  urlPassword,
  urlToken,
  envPair,
  cookie,
  curlCredentials,
  commandCredentials,
  positionalCredentials,
  netrc,
  pgpass,
  markupCredentials,
  sqlPassword,
  oracleConnect,
  ciMask,
  assignment,
  // Last: a credential key name under a Secret's data names the kind (`password`, not `secret`).
  kubernetesSecret,
];
