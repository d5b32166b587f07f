import type { ToolError } from '@toolplane/core';
import { sandboxError } from '../errors.js';
import { DEFAULT_DOCKER_IMAGE } from './docker-options.js';

interface EngineFailure {
  readonly code?: string;
  readonly statusCode?: number;
  readonly message?: string;
  readonly json?: { readonly message?: string } | null;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'EACCES',
  'EPERM',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ETIMEDOUT',
]);

/** Where dockerode connects, for messages. */
export function engineAddress(): string {
  return process.env['DOCKER_HOST'] ?? 'unix:///var/run/docker.sock';
}

/** The command that makes `image` available, for messages. */
export function imageRemedy(image: string): string {
  return image === DEFAULT_DOCKER_IMAGE
    ? `build it offline with \`bash tooling/ci/sandbox-engines.sh\` (a busybox-static rootfs, \`docker import\`ed as ${image})`
    : `pull it with \`docker pull ${image}\` or build it with \`docker build -t ${image} .\``;
}

/** True when an engine error says the engine could not be reached at all. */
export function isUnreachable(error: unknown): boolean {
  const failure = error as EngineFailure | undefined;
  return typeof failure?.code === 'string' && UNREACHABLE.has(failure.code);
}

/** A dockerode failure as an error a person can act on. */
export function engineError(error: unknown, doing: string, image: string): ToolError {
  const failure = (error ?? {}) as EngineFailure;
  const detail = failure.json?.message ?? failure.message ?? String(error);
  if (isUnreachable(error)) {
    return sandboxError(
      'SANDBOX_ENGINE_UNREACHABLE',
      `the Docker engine at ${engineAddress()} did not answer (${failure.code}) while ${doing}: start it (\`dockerd\`, \`systemctl start docker\`, or \`bash tooling/ci/sandbox-engines.sh\`) or point DOCKER_HOST at it`,
      { cause: error, details: { engine: engineAddress() } },
    );
  }
  if (failure.statusCode === 404 && /no such image|not found/i.test(detail)) {
    return sandboxError(
      'SANDBOX_IMAGE_MISSING',
      `the sandbox image ${image} is not on the Docker engine: ${imageRemedy(image)}`,
      {
        cause: error,
        details: { image },
      },
    );
  }
  return sandboxError('SANDBOX_START_FAILED', `the Docker engine refused ${doing}: ${detail}`, {
    cause: error,
    details: { image, statusCode: failure.statusCode },
  });
}
