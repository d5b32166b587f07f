import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ToolError } from '@toolplane/core';
import type { PolicyConfig } from '@toolplane/policy';
import { readSubagentsFile } from '../subagents/subagents-file.js';
import type { ServerOptions } from './server-options.js';

function integer(env: NodeJS.ProcessEnv, name: string, min: number): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min)
    throw new ToolError('CONFIG_INVALID', `${name} must be a whole number of at least ${min}, got "${text}"`);
  return value;
}

/** Reads the server's options from `TOOLPLANE_*` environment variables. */
export function optionsFromEnv(env: NodeJS.ProcessEnv): ServerOptions {
  const policyFile = env.TOOLPLANE_POLICY_FILE;
  let policy: PolicyConfig | undefined;
  if (policyFile) {
    try {
      policy = JSON.parse(readFileSync(policyFile, 'utf8')) as PolicyConfig;
    } catch (cause) {
      throw new ToolError(
        'CONFIG_INVALID',
        `TOOLPLANE_POLICY_FILE ${policyFile} is not a readable JSON policy: ${(cause as Error).message}`,
        { cause },
      );
    }
  }
  const port = integer(env, 'TOOLPLANE_PORT', 0);
  const maxBodyBytes = integer(env, 'TOOLPLANE_MAX_BODY_BYTES', 1);
  const shutdownDeadlineMs = integer(env, 'TOOLPLANE_SHUTDOWN_DEADLINE_MS', 0);
  const callTimeoutMs = integer(env, 'TOOLPLANE_CALL_TIMEOUT_MS', 1);
  const requestTimeoutMs = integer(env, 'TOOLPLANE_REQUEST_TIMEOUT_MS', 1);
  const headersTimeoutMs = integer(env, 'TOOLPLANE_HEADERS_TIMEOUT_MS', 1);
  const rateLimitPerMinute = integer(env, 'TOOLPLANE_RATE_LIMIT_PER_MINUTE', 0);
  const approvalTimeoutMs = integer(env, 'TOOLPLANE_APPROVAL_TIMEOUT_MS', 1);
  const callRecordRetentionMs = integer(env, 'TOOLPLANE_CALL_RECORD_RETENTION_MS', 1);
  const callRecordsPerTenant = integer(env, 'TOOLPLANE_CALL_RECORDS_PER_TENANT', 1);
  return {
    host: env.TOOLPLANE_HOST || '127.0.0.1',
    stateDir: env.TOOLPLANE_STATE_DIR || join(homedir(), '.toolplane', 'server'),
    ...(port !== undefined ? { port } : {}),
    ...(env.TOOLPLANE_DATABASE_URL ? { databaseUrl: env.TOOLPLANE_DATABASE_URL } : {}),
    ...(env.TOOLPLANE_SECRET_KEY ? { secretKey: env.TOOLPLANE_SECRET_KEY } : {}),
    ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
    ...(shutdownDeadlineMs !== undefined ? { shutdownDeadlineMs } : {}),
    ...(callTimeoutMs !== undefined ? { callTimeoutMs } : {}),
    ...(requestTimeoutMs !== undefined ? { requestTimeoutMs } : {}),
    ...(headersTimeoutMs !== undefined ? { headersTimeoutMs } : {}),
    ...(rateLimitPerMinute !== undefined ? { rateLimitPerMinute } : {}),
    ...(approvalTimeoutMs !== undefined ? { approvalTimeoutMs } : {}),
    ...(callRecordRetentionMs !== undefined ? { callRecordRetentionMs } : {}),
    ...(callRecordsPerTenant !== undefined ? { callRecordsPerTenant } : {}),
    ...(policy ? { policy } : {}),
    ...(env.TOOLPLANE_PUBLIC_URL ? { publicUrl: env.TOOLPLANE_PUBLIC_URL } : {}),
    ...(env.TOOLPLANE_SUBAGENTS_FILE ? { subagents: readSubagentsFile(env.TOOLPLANE_SUBAGENTS_FILE) } : {}),
  };
}
