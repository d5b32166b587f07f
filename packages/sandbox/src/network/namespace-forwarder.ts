import { type ChildProcess, spawn } from 'node:child_process';
import { sandboxError } from '../errors.js';

/** The port the proxy answers on inside a sandbox (its loopback interface). */
export const SANDBOX_PROXY_PORT = 3128;

/** Listens on the namespace's loopback and carries each connection to the proxy's unix socket. */
const FORWARDER = `
const net = require('node:net');
const [socketPath, port] = process.argv.slice(1);
const server = net.createServer((inside) => {
  const outside = net.connect(socketPath);
  inside.pipe(outside).pipe(inside);
  const end = () => { inside.destroy(); outside.destroy(); };
  inside.on('error', end); outside.on('error', end); inside.on('close', end); outside.on('close', end);
});
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('listening\\n'));
process.stdin.on('end', () => process.exit(0)).resume();
`;

/** A forwarder running in a sandbox's network namespace. */
export interface NamespaceForwarder {
  stop(): void;
}

/**
 * Starts the forwarder inside the network namespace of `pid` (a container's init, a jail's
 * first process) with `nsenter --net`: only the network namespace changes, so the forwarder
 * still reaches the proxy's unix socket by its host path, and the sandbox gets no interface
 * but loopback. Needs root and a local engine. It exits with the namespace or when stopped.
 */
export async function startNamespaceForwarder(pid: number, socketPath: string): Promise<NamespaceForwarder> {
  const child: ChildProcess = spawn(
    'nsenter',
    [
      `--net=/proc/${pid}/ns/net`,
      '--',
      process.execPath,
      '-e',
      FORWARDER,
      socketPath,
      String(SANDBOX_PROXY_PORT),
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const ready = await new Promise<boolean>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) resolve(true);
    });
    child.once('exit', () => resolve(false));
    child.once('error', () => resolve(false));
  });
  if (!ready) {
    child.kill('SIGKILL');
    throw sandboxError(
      'SANDBOX_START_FAILED',
      `the network allow-list could not be bridged into the sandbox (nsenter into pid ${pid}: ${stderr.trim() || 'exited'}): it needs root on the machine that runs the sandbox`,
    );
  }
  return {
    stop: () => {
      child.kill('SIGKILL');
    },
  };
}

/** The proxy variables commands get when the network is an allow-list. */
export function proxyEnvironment(): Record<string, string> {
  const url = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`;
  return { http_proxy: url, https_proxy: url, HTTP_PROXY: url, HTTPS_PROXY: url, no_proxy: '', NO_PROXY: '' };
}
