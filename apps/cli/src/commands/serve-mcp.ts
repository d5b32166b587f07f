import { createReadStream } from 'node:fs';
import { loadConfig } from '../config/load.js';
import { type CommandContext, writeLine } from '../context.js';
import { EXIT_CODES, usageError } from '../output/cli-error.js';
import { createStyle } from '../output/style.js';
import { terminalLine } from '../output/terminal-text.js';
import { packageVersion } from '../package-version.js';
import { withRuntime } from '../runtime/lifecycle.js';
import { warningLines } from '../runtime/warnings.js';
import type { TerminalReader } from '../prompts/terminal-reader.js';

/** How long calls still running get to finish after the client closes stdin. */
const STDIN_CLOSE_GRACE_MS = 10_000;

/**
 * The terminal of the gateway: over stdio, stdin is the protocol, so answers are read from the
 * controlling terminal (`/dev/tty`) when stderr is one; over HTTP, from stdin when it is a
 * terminal. Approvals and elicitations share it, asked one at a time. Without a terminal there is
 * nobody to ask: `ask` decisions fail closed and elicitations are declined, saying why.
 */
async function openTerminal(context: CommandContext, stdio: boolean): Promise<TerminalReader | undefined> {
  if (!context.stderr.isTTY) return undefined;
  const { createTerminalReader } = await import('../prompts/terminal-reader.js');
  if (!stdio) return context.stdin.isTTY ? createTerminalReader(context.stdin, context.stderr) : undefined;
  try {
    const input = createReadStream('/dev/tty');
    await new Promise<void>((resolve, reject) => {
      input.once('open', () => resolve());
      input.once('error', reject);
    });
    const reader = createTerminalReader(input, context.stderr);
    return {
      turn: (signal, prompt) => reader.turn(signal, prompt),
      write: (text) => reader.write(text),
      discardTypedAhead: () => reader.discardTypedAhead(),
      close() {
        reader.close();
        input.destroy();
      },
    };
  } catch {
    return undefined;
  }
}

function listenProblem(error: NodeJS.ErrnoException): string {
  if (error.code === 'EADDRINUSE') return 'the port is already in use';
  if (error.code === 'EACCES') return 'permission denied (ports below 1024 need privileges)';
  if (error.code === 'EADDRNOTAVAIL') return 'the address is not one of this machine';
  if (error.code === 'ENOTFOUND') return 'the host name does not resolve';
  return error.message;
}

/** `toolplane serve mcp`: the configured tools as one MCP server, over stdio or streamable HTTP. */
export async function serveMcp(
  context: CommandContext,
  options: { stdio?: boolean; http?: string; prefix?: boolean; tokenEnv?: string; allowOrigin?: string[] },
): Promise<number> {
  if (options.stdio && options.http)
    throw usageError('choose one of --stdio and --http', 'stdio is the default');
  const { hostPortProblem, parseHostPort, startHttpGateway } = await import('../gateway/http.js');
  const address = options.http === undefined ? undefined : parseHostPort(options.http);
  if (options.http !== undefined && !address) {
    const problem = hostPortProblem(options.http);
    throw usageError(
      `--http takes HOST:PORT, got ${options.http}${problem ? `: ${problem}` : ''}`,
      'for example --http 127.0.0.1:8808 (port 0 picks a free one; an IPv6 address in brackets: [::1]:8808)',
    );
  }
  const stdio = address === undefined;
  const { httpAccess } = await import('../gateway/http-options.js');
  const access = address ? httpAccess(options, process.env) : undefined;
  const loaded = await loadConfig(context.cwd, context.configPath);
  const terminal = await openTerminal(context, stdio);
  const approvals = terminal
    ? (await import('../prompts/terminal-approvals.js')).terminalApprovals(terminal)
    : undefined;
  const elicit = terminal
    ? (await import('../prompts/terminal-elicitation.js')).terminalElicitation(terminal, {
        timeoutMs: loaded.config.limits.approvalTimeoutMs,
      }).elicit
    : undefined;
  const style = createStyle(context.stderr);
  const { gatewayClientOptions } = await import('../gateway/client-options.js');
  const { bridge, mcpClient } = await gatewayClientOptions(loaded, { approvals, elicit });
  try {
    // approvals go per call (see createGatewayServer): to the calling client, else the terminal
    return await withRuntime(loaded, { mcpClient }, async (runtime) => {
      const { createGatewayServer } = await import('../gateway/server.js');
      const { unprefixedServer } = await import('../gateway/unprefixed.js');
      const unprefixed = options.prefix === false ? unprefixedServer(runtime) : undefined;
      const { approvalHint } = await import('../gateway/approval-hint.js');
      const serverOptions = {
        version: packageVersion(),
        bridge,
        approvalHint: approvalHint(loaded),
        ...(approvals ? { approvals } : {}),
        ...(unprefixed ? { unprefixed } : {}),
      };
      const count = runtime.orchestrator.listTools().length;
      for (const provider of runtime.orchestrator.providers().filter((entry) => entry.state === 'failed'))
        writeLine(
          context.stderr,
          `${style.yellow('warning:')} provider ${terminalLine(provider.namespace)} did not start: ${terminalLine(runtime.redact(provider.error ?? 'unknown error'))}`,
        );
      for (const line of warningLines(runtime.providers))
        writeLine(context.stderr, `${style.yellow('warning:')} ${terminalLine(runtime.redact(line))}`);
      const approvalNote = approvals
        ? 'approvals asked on this terminal (elicitations too), or of clients that take elicitation'
        : 'approvals asked of clients that take elicitation; for others, calls that need approval fail closed';
      if (address) {
        if (!access) throw new Error('unreachable: --http without access settings');
        runtime.scrubber?.addSecret(access.access.token);
        const gateway = await startHttpGateway({
          ...address,
          access: access.access,
          tokenSource: access.generated
            ? 'the token made for this run, printed when the gateway started'
            : `the token in ${access.source} where the gateway runs`,
          createServer: () => createGatewayServer(runtime, serverOptions),
        }).catch((error: NodeJS.ErrnoException) => {
          throw usageError(
            `cannot listen on ${options.http}: ${listenProblem(error)}`,
            'choose another HOST:PORT for --http (port 0 picks a free one; the host must be an address of this machine)',
          );
        });
        writeLine(
          context.stderr,
          `toolplane: serving ${count} tools at ${gateway.url} (${approvalNote}; Ctrl-C stops)`,
        );
        writeLine(
          context.stderr,
          access.generated
            ? `toolplane: clients send "Authorization: Bearer ${access.access.token}" (a token made for this run; set ${access.source} to choose one)`
            : `toolplane: clients send "Authorization: Bearer <token>" with the token from ${access.source}`,
        );
        if (access.access.allowedOrigins.length > 0)
          writeLine(
            context.stderr,
            `toolplane: browser pages allowed: ${access.access.allowedOrigins.map(terminalLine).join(', ')}`,
          );
        if (gateway.interfaceUrls)
          writeLine(
            context.stderr,
            gateway.interfaceUrls.length > 0
              ? `toolplane: listening on every interface; from other machines: ${gateway.interfaceUrls.join(', ')}`
              : 'toolplane: listening on every interface (this machine has no other address)',
          );
        await new Promise<void>(() => {
          // runs until a signal ends the process (withRuntime closes the providers first)
        });
        return EXIT_CODES.ok;
      }
      const { GatewayStdioTransport } = await import('../gateway/stdio-transport.js');
      const { trackPendingRequests } = await import('../gateway/inflight.js');
      const server = createGatewayServer(runtime, serverOptions);
      const transport = new GatewayStdioTransport(context.stdin, context.stdout);
      const ended = new Promise<void>((resolve) => {
        context.stdin.once('end', resolve);
        context.stdin.once('close', resolve);
        transport.onclose = () => resolve();
      });
      const { refuseInvalidParams } = await import('../gateway/params-guard.js');
      await server.connect(transport);
      refuseInvalidParams(transport);
      const pending = trackPendingRequests(transport);
      writeLine(context.stderr, `toolplane: serving ${count} tools over stdio (${approvalNote})`);
      await ended;
      // the client closed its end: answer the requests already received (their results may
      // still be read), then stop
      await pending.drain(STDIN_CLOSE_GRACE_MS);
      await server.close().catch(() => {});
      return EXIT_CODES.ok;
    });
  } finally {
    terminal?.close();
  }
}
