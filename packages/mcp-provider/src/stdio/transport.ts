import { type ChildProcess, spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createId } from '@toolplane/core';
import { MCP_DEFAULTS, type McpStdioServerConfig } from '../config/types.js';
import { serverEnvironment } from './environment.js';
import { guardProcessTree, releaseProcessTree } from './exit-guard.js';
import type { ProcessLedger } from './ledger.js';
import { parseEnvelope } from '../transport/envelope.js';
import { LineReader, TailBuffer } from './line-reader.js';
import { MARKER_VARIABLE, killProcessTree } from './process-tree.js';
import { outputEnded } from './output-end.js';
import { spawnFailure } from './spawn-failure.js';
import { StartOutput } from './start-output.js';

/** How long a server that closed its stdout may take to exit before it is stopped. */
const STDOUT_CLOSED_GRACE_MS = 1_000;

/** Options of {@link StdioProcessTransport}. */
export interface StdioTransportOptions {
  readonly server: string;
  readonly config: McpStdioServerConfig;
  readonly ledger?: ProcessLedger;
  /** Time between SIGTERM and SIGKILL when closing. Default 1000 ms. */
  readonly killGraceMs?: number;
}

/**
 * Runs a stdio MCP server in its own process group (`detached`), with a marker variable in its
 * environment, and kills the whole tree (group, `/proc` descendants, marked processes) on
 * close, on exit of the server and on exit of the parent. The SDK's stdio transport kills only
 * the direct child, which leaks `npx` -> `node` -> server chains.
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly marker: string;
  private child: ChildProcess | undefined;
  private readonly stderr: TailBuffer;
  private readonly reader: LineReader;
  private exited: Promise<void> | undefined;
  private closed = false;
  private exitDescription = '';
  /** Why the transport gave up on the server's output (a message over maxMessageBytes). */
  private fault = '';
  private reaping: Promise<void> | undefined;
  private closing = false;
  private readonly inbox: JSONRPCMessage[] = [];
  private draining = false;
  private interceptor: ((message: unknown) => boolean) | undefined;
  /** Writes waiting for the server's stdin to drain (see afterDrain). */
  private drainWaiters: Array<() => void> = [];
  /** Stdout that is not JSON-RPC until the session is open (see {@link started}). */
  private startOutput: StartOutput | undefined = new StartOutput();

  constructor(private readonly options: StdioTransportOptions) {
    this.marker = `${process.pid}-${createId(options.server)}`;
    this.stderr = new TailBuffer(options.config.stderrTailBytes ?? MCP_DEFAULTS.stderrTailBytes);
    this.reader = new LineReader(options.config.maxMessageBytes ?? MCP_DEFAULTS.maxMessageBytes);
  }

  /** Pid of the direct child, once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * How the process ended, what it wrote to stdout that is not JSON-RPC while starting, and the
   * stderr tail, for error messages.
   */
  diagnostics(): string {
    const tail = this.stderr.toString();
    const stdout = this.startOutput?.toString() ?? '';
    return [this.fault, this.exitDescription, stdout, tail ? `stderr: ${tail}` : '']
      .filter(Boolean)
      .join('; ');
  }

  /**
   * The session is open: stdout that is not JSON-RPC is from now on only reported as protocol
   * errors, and no longer quoted in {@link diagnostics} (a banner printed at start would be
   * quoted in the reason of every later crash).
   */
  started(): void {
    this.startOutput = undefined;
  }

  start(): Promise<void> {
    const { config, server } = this.options;
    return new Promise((resolve, reject) => {
      const env = serverEnvironment(config.env, { inheritAll: config.inheritEnv === true });
      env[MARKER_VARIABLE] = this.marker;
      let child: ChildProcess;
      try {
        child = spawn(config.command, [...(config.args ?? [])], {
          cwd: config.cwd,
          env,
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: true,
          windowsHide: true,
        });
      } catch (error) {
        reject(spawnFailure(config, error));
        return;
      }
      this.child = child;
      let spawned = false;
      child.once('error', (error) => {
        if (!spawned) {
          reject(spawnFailure(config, error));
          this.finish();
        } else this.onerror?.(error);
      });
      child.once('spawn', () => {
        spawned = true;
        const pid = child.pid as number;
        const target = { pid, pgid: pid, marker: this.marker };
        guardProcessTree(this.marker, target);
        this.options.ledger?.record({ ...target, server, command: config.command, startedAt: Date.now() });
        resolve();
      });
      this.exited = new Promise((done) => {
        child.once('exit', (code, signal) => {
          this.exitDescription = signal
            ? `server process was killed by ${signal}`
            : `server process exited with code ${code}`;
          void this.afterExit().then(done);
        });
      });
      child.stdout?.on('data', (chunk: Buffer) => this.onData(chunk));
      child.stdout?.once('end', () => this.afterStdoutEnd(child));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => this.stderr.push(chunk));
      child.stdin?.on('error', (error) => this.onerror?.(error));
    });
  }

  /**
   * The server closed its stdout: it can answer nothing more. One that exits (the usual reason)
   * is left to exit; one still running after {@link STDOUT_CLOSED_GRACE_MS} is stopped, so calls
   * waiting on it fail now (and it restarts) instead of each waiting for its timeout.
   */
  private afterStdoutEnd(child: ChildProcess): void {
    const timer = setTimeout(() => {
      if (this.closing || this.closed || child.exitCode !== null || child.signalCode !== null) return;
      this.fault = `the server closed its standard output but kept running (it could answer nothing more), so it was stopped`;
      void this.close();
    }, STDOUT_CLOSED_GRACE_MS);
    timer.unref?.();
    child.once('exit', () => clearTimeout(timer));
  }

  private onData(chunk: Buffer): void {
    let lines: string[];
    try {
      lines = this.reader.push(chunk);
    } catch (error) {
      this.fault = `${(error as Error).message} (raise maxMessageBytes if the server means to send that much)`;
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    for (const read of lines) {
      // a byte order mark (a .NET console writes one before its first line) is not part of the message
      const line = read.charCodeAt(0) === 0xfeff ? read.slice(1) : read;
      if (!line.trim()) continue;
      try {
        for (const message of parseEnvelope(line)) this.inbox.push(message);
      } catch {
        this.startOutput?.push(line);
        this.onerror?.(new Error(`malformed JSON-RPC message from the server: ${line.slice(0, 200)}`));
      }
    }
    this.drain();
  }

  /**
   * Delivers queued messages in order. After a notification it yields one microtask: the SDK
   * dispatches notifications a microtask late but responses at once, so a progress
   * notification read in the same chunk as its response would otherwise be dropped.
   */
  private drain(): void {
    if (this.draining) return;
    this.draining = true;
    while (this.inbox.length > 0) {
      const message = this.inbox.shift() as JSONRPCMessage;
      // the provider's own calls (see DirectCalls) take their answers before the SDK sees them
      if (this.interceptor?.(message)) continue;
      this.onmessage?.(message);
      if (!('id' in message) && this.inbox.length > 0) {
        queueMicrotask(() => {
          this.draining = false;
          this.drain();
        });
        return;
      }
    }
    this.draining = false;
  }

  /**
   * The child is gone: report the close at once (calls in flight fail now, with the output that
   * had arrived), then reap whatever it left in its group or with its marker.
   */
  private async afterExit(): Promise<void> {
    await outputEnded([this.child?.stdout, this.child?.stderr], 50);
    this.finish();
    const pid = this.child?.pid;
    // close() already killed the whole tree; an exit on its own leaves the rest to reap.
    if (pid !== undefined && !this.closing) {
      this.reaping = killProcessTree({ pid, pgid: pid, marker: this.marker }, { graceMs: 0 }).then(
        () => {},
        () => {},
      );
      await this.reaping;
    }
    if (!this.closing) this.options.ledger?.forget(this.marker);
  }

  private finish(): void {
    releaseProcessTree(this.marker);
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  /**
   * Lets the provider see each inbound message before the SDK; a message it consumes (returns
   * true for) is not delivered to `onmessage`.
   */
  setInterceptor(interceptor: ((message: unknown) => boolean) | undefined): void {
    this.interceptor = interceptor;
  }

  send(message: JSONRPCMessage | Readonly<Record<string, unknown>>): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed || !stdin.writable)
      return Promise.reject(new Error('server process is not running'));
    // Messages sent in one tick leave in one write (one `writev`) instead of a system call each:
    // with many calls in flight, a write per message was most of the cost of sending them.
    if (!stdin.writableCorked) {
      stdin.cork();
      process.nextTick(() => stdin.uncork());
    }
    // Write errors surface through the stdin 'error' listener (and the exit that follows).
    if (stdin.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    return new Promise((resolve) => this.afterDrain(stdin, resolve));
  }

  /**
   * Waits for the pipe to drain with one listener for every waiting write: a server that stops
   * reading left one `drain` listener per message written to it (Node warned past 10), and a
   * write that waited when the server exited never settled. The waiters go on the pipe's drain,
   * or its close (the server is gone: what it did not read is lost, and the exit says so).
   */
  private afterDrain(stdin: Writable, resolve: () => void): void {
    this.drainWaiters.push(resolve);
    if (this.drainWaiters.length > 1) return;
    const release = (): void => {
      stdin.off('drain', release);
      stdin.off('close', release);
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const waiter of waiters) waiter();
    };
    stdin.on('drain', release);
    stdin.on('close', release);
  }

  /** Kills the whole tree (SIGTERM, then SIGKILL after the grace time) and waits for the exit. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || child.pid === undefined) {
      this.finish();
      return;
    }
    if (child.exitCode === null && child.signalCode === null) {
      this.closing = true;
      child.stdin?.end();
      await killProcessTree(
        { pid: child.pid, pgid: child.pid, marker: this.marker },
        { graceMs: this.options.killGraceMs ?? 1000 },
      );
    }
    await this.exited;
    await this.reaping;
    this.finish();
    // the tree is gone: off the ledger (see ProcessLedger.forget)
    this.options.ledger?.forget(this.marker);
  }
}
