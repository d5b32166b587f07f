import { Command, CommanderError } from 'commander';
import type { CommandContext } from './context.js';
import { CliError, EXIT_CODES, usageError } from './output/cli-error.js';
import { createStyle } from './output/style.js';
import { packageVersion } from './package-version.js';

function examples(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * The parser of an option that takes one value: given twice, it is refused. (Commander keeps
 * the last and drops the first without a word: a call would run with other arguments, another
 * deadline or another config than the operator also typed.)
 */
function once(flag: string): (value: string, previous: string | undefined) => string {
  return (value, previous) => {
    if (previous !== undefined)
      throw usageError(
        `${flag} is given twice: give it once`,
        `remove one of the ${flag} options (run with --help for usage)`,
      );
    return value;
  };
}

/** Options every command takes, read from the root program. */
function contextOf(command: Command, io: Omit<CommandContext, 'configPath'>): CommandContext {
  const { config } = command.optsWithGlobals<{ config?: string }>();
  return { ...io, configPath: config };
}

/** The `toolplane` program. Commands load their modules only when they run, so `--help` stays fast. */
export function createProgram(
  io: Omit<CommandContext, 'configPath'>,
  setExitCode: (code: number) => void,
): Command {
  const program = new Command('toolplane')
    .description('See, try, debug and serve the tools of your MCP servers, REST APIs and built-ins.')
    .version(packageVersion(), '-V, --version', 'print the version')
    .option(
      '-c, --config <file>',
      'config file (toolplane.config.json/.yaml, or an mcpServers/servers file)',
      once('--config'),
    )
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // commander's "error: unknown option '--x'" with the stable code every error line has
      outputError: (text, write) => write(text.replace(/^error: /, 'toolplane: error: INVALID_ARGUMENTS: ')),
    })
    .exitOverride()
    .addHelpText(
      'after',
      `${examples([
        'toolplane tools list',
        'toolplane tools call read --args \'{"path":"README.md"}\'',
        'toolplane --config ~/.cursor/mcp.json serve mcp --stdio',
        'toolplane doctor',
        'toolplane agent run --yes "Summarise README.md"',
      ])}
Exit codes: 0 ok, 1 tool error, 2 usage or config error.
Config: ./toolplane.config.json (or .yaml) unless --config names one; with none, the read-only
built-in tools (read, list, glob, grep) on the current directory.`,
    );
  const run =
    <A extends unknown[]>(load: () => Promise<(context: CommandContext, ...args: A) => Promise<number>>) =>
    async (...args: unknown[]): Promise<void> => {
      const command = args[args.length - 1] as Command;
      const handler = await load();
      setExitCode(await handler(contextOf(command, io), ...(args.slice(0, -1) as A)));
    };

  const tools = program.command('tools').description('list the configured tools, or call one');
  tools
    .command('list')
    .description('every tool the configured providers offer, after policy')
    .option('--json', 'print JSON for scripts')
    .option('--agent <id>', 'list what this agent may see', once('--agent'))
    .option('--user <id>', 'list what this user may see', once('--user'))
    .option(
      '--format <dialect>',
      'print the definitions a model API takes: openai, openai-strict, anthropic, gemini or mcp (JSON)',
      once('--format'),
    )
    .option(
      '--compat',
      'with --format: what the dialect changed or lost, per tool (stderr; in the JSON with --json)',
    )
    .addHelpText(
      'after',
      examples([
        'toolplane tools list',
        'toolplane tools list --json | jq ".[].name"',
        'toolplane tools list --format openai-strict > tools.json',
        'toolplane tools list --format gemini --compat --json | jq .report.counts',
      ]),
    )
    .action(run(async () => (await import('./commands/tools-list.js')).toolsList));
  tools
    .command('call')
    .description('one real call through the full pipeline (policy, limits, scrubbing)')
    .argument('<name>', 'public tool name, as `tools list` shows it')
    .option(
      '--args <json>',
      'arguments: a JSON object, or @file to read one (default: stdin when piped, else {})',
      once('--args'),
    )
    .option('--trace', 'print the operation tree of the call')
    .option('--json', 'print the whole result as JSON')
    .option('--timeout <ms>', 'deadline of the call in milliseconds', once('--timeout'))
    .addHelpText(
      'after',
      examples([
        'toolplane tools call read --args \'{"path":"package.json","limit":20}\'',
        'toolplane tools call weather__current --args @args.json --trace',
        'echo \'{"message":"hi"}\' | toolplane tools call everything__echo --json',
      ]),
    )
    .action(run(async () => (await import('./commands/tools-call.js')).toolsCall));
  tools
    .command('describe')
    .description('one tool: description, risk, input and output schema, annotations, provider, policy')
    .argument('<name>', 'public tool name, as `tools list` shows it')
    .option('--json', 'print JSON')
    .option('--agent <id>', 'say what the policy lets this agent do with it', once('--agent'))
    .option('--user <id>', 'say what the policy lets this user do with it', once('--user'))
    .addHelpText(
      'after',
      examples([
        'toolplane tools describe read',
        'toolplane tools describe everything__echo --json | jq .inputSchema',
      ]),
    )
    .action(run(async () => (await import('./commands/tools-describe.js')).toolsDescribe));

  const serve = program.command('serve').description('serve the configured tools');
  serve
    .command('mcp')
    .description('all configured tools, after policy and scrubbing, as ONE MCP server (a gateway)')
    .option('--stdio', 'serve over stdin/stdout (the default)')
    .option(
      '--http <host:port>',
      'serve streamable HTTP at http://HOST:PORT/mcp (port 0 picks one)',
      once('--http'),
    )
    .option('--no-prefix', "with one MCP server: its own tool and prompt names, without 'server__'")
    .option(
      '--token-env <var>',
      'with --http: the bearer token clients send is in this environment variable (default TOOLPLANE_GATEWAY_TOKEN; else one is made and printed)',
      once('--token-env'),
    )
    .option(
      '--allow-origin <origin>',
      'with --http: let browser pages of this origin call (repeatable; other Origins get 403)',
      collect,
    )
    .addHelpText(
      'after',
      `${examples(['toolplane serve mcp --stdio', 'toolplane serve mcp --http 127.0.0.1:8808'])}
Claude Desktop / Cursor entry:
  { "mcpServers": { "toolplane": { "command": "toolplane", "args": ["serve", "mcp", "--stdio"] } } }
Over --http every request carries "Authorization: Bearer <token>" (the token is printed at start
unless TOOLPLANE_GATEWAY_TOKEN or --token-env gives it).
Calls that need approval are asked of the MCP client when it declared elicitation, else on the
terminal when there is one (allow once / always / deny); otherwise they fail closed, and the error
names the config file and the setting that allows them.`,
    )
    .action(run(async () => (await import('./commands/serve-mcp.js')).serveMcp));

  const openapi = program.command('openapi').description('OpenAPI documents as tools');
  openapi
    .command('import')
    .description('import an OpenAPI 3.x / Swagger 2.0 document (file or URL) into a REST tool config')
    .argument('<source>', 'file path or http(s) URL of the document')
    .option('--namespace <name>', 'tool-name prefix (default: from the document title)', once('--namespace'))
    .option('--tag <tag>', 'keep operations with this tag (repeatable)', collect)
    .option('--base-url <url>', 'override the servers of the document', once('--base-url'))
    .option(
      '--allow-token-origin <origin>',
      "let the document's OAuth2 tokenUrl be on this origin, besides the API's own (repeatable)",
      collect,
    )
    .option(
      '--header <name:value>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax of a header value
      "send this header with every imported tool's request; ${VAR} is read from the environment at each call (repeatable)",
      collect,
    )
    .option('--out <file>', 'write the tool config here (.json or .yaml); default: print it', once('--out'))
    .option('--json', 'print a JSON summary instead of text')
    .addHelpText(
      'after',
      examples([
        'toolplane openapi import ./petstore.yaml --tag pet --out petstore.tools.yaml',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell example with the ${VAR} syntax
        "toolplane openapi import ./api.github.com.json --tag issues --header 'Authorization: Bearer ${GITHUB_TOKEN}' --out github.tools.json",
        'toolplane openapi import https://example.com/openapi.json --namespace example --out example.tools.json',
      ]),
    )
    .action(run(async () => (await import('./commands/openapi-import.js')).openapiImport));

  program
    .command('doctor')
    .description('start each provider, list its tools, time a round trip, and report what works')
    .option('--json', 'print JSON')
    .addHelpText('after', examples(['toolplane doctor', 'toolplane --config .mcp.json doctor --json']))
    .action(run(async () => (await import('./commands/doctor.js')).doctor));

  const mcp = program.command('mcp').description('log in to remote MCP servers that use OAuth');
  mcp
    .command('login')
    .description(
      'log in to a remote MCP server (OAuth): print the URL, wait for the redirect on 127.0.0.1, store the tokens',
    )
    .argument('<server>', 'name of the server in the config')
    .option(
      '--client-id <id>',
      'a client registered with the authorization server beforehand',
      once('--client-id'),
    )
    .option(
      '--client-secret-env <var>',
      "environment variable holding that client's secret",
      once('--client-secret-env'),
    )
    .option('--scope <scope>', 'scope to ask for (default: what the server asks for)', once('--scope'))
    .option('--timeout <seconds>', 'how long to wait for the redirect (default 300)', once('--timeout'))
    .option('--no-browser', 'print the URL only')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `${examples(['toolplane mcp login linear', 'toolplane mcp login github --client-id Iv1.abc --client-secret-env GH_SECRET'])}
Tokens go to $XDG_CONFIG_HOME/toolplane/mcp-tokens.json (~/.config/...; TOOLPLANE_TOKEN_FILE overrides), mode 0600.`,
    )
    .action(run(async () => (await import('./commands/mcp-login.js')).mcpLogin));
  mcp
    .command('logout')
    .description('forget the tokens and registered client of a remote MCP server')
    .argument('<server>', 'name of the server in the config')
    .option('--json', 'print JSON')
    .action(run(async () => (await import('./commands/mcp-login.js')).mcpLogout));

  const policy = program.command('policy').description('the policy in effect');
  policy
    .command('explain')
    .description('why a tool is visible or hidden for an agent/user, step by step')
    .argument('<tool>', 'public tool name')
    .option('--agent <id>', 'agent id (principal.agentId)', once('--agent'))
    .option('--user <id>', 'user id (principal.userId)', once('--user'))
    .option('--channel <name>', 'channel (principal.channel)', once('--channel'))
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      examples([
        'toolplane policy explain bash',
        'toolplane policy explain github__delete_repo --agent reviewer',
      ]),
    )
    .action(run(async () => (await import('./commands/policy-explain.js')).policyExplain));

  const agent = program.command('agent').description('run an agent with the configured tools and subagents');
  agent
    .command('run')
    .description(
      'run the reference agent on a task against an OpenAI-compatible endpoint, printing each step and the final report',
    )
    .argument('<task>', 'what the agent should do (in quotes)')
    .option('--model <id>', 'model of the root agent (default: model.name of the config)', once('--model'))
    .option('--agent <name>', 'run this agent of the config as the root', once('--agent'))
    .option('-y, --yes', 'answer every approval question "allow once" (deny rules still apply)')
    .option('--trace', 'print the operation tree of the run')
    .option('--json', 'print every step, then the outcome, as JSON lines')
    .addHelpText(
      'after',
      `${examples([
        'toolplane agent run "Summarise README.md"',
        'OPENAI_BASE_URL=http://127.0.0.1:11434/v1 toolplane agent run --model qwen2.5 "List the TODOs"',
        'toolplane agent run --yes --json "Ask the researcher which tests are slow" | jq -c .type',
      ])}
Endpoint: model.baseUrl / model.apiKey / model.name of the config, else OPENAI_BASE_URL and
OPENAI_API_KEY. Subagents come from the agents section. Steps go to stderr, the report to stdout.
Approvals (spawning a subagent, risky tools) are asked on the terminal; without one they fail closed
unless --yes is given. Ctrl-C cancels the run and everything it started.`,
    )
    .action(run(async () => (await import('./commands/agent-run.js')).agentRun));

  const config = program.command('config').description('the config file');
  config
    .command('validate')
    .description('check the config: every problem with file, line and field path')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      examples(['toolplane config validate', 'toolplane --config toolplane.config.yaml config validate']),
    )
    .action(run(async () => (await import('./commands/config-validate.js')).configValidate));

  return program;
}

/** Runs the program; returns the exit code. */
export async function runCli(
  argv: readonly string[],
  io: Omit<CommandContext, 'configPath'>,
): Promise<number> {
  let exitCode: number = EXIT_CODES.ok;
  const program = createProgram(io, (code) => {
    exitCode = code;
  });
  // `--json` asked for JSON on stdout: an error is JSON there too (besides its line on stderr),
  // so `toolplane doctor --json | jq` reads a failure instead of nothing. Until a command's
  // options are parsed, the word on the command line decides (a commander error).
  const end = argv.indexOf('--');
  let json = argv.slice(2, end === -1 ? undefined : end).includes('--json');
  program.hook('preAction', (_program, action) => {
    json = action.opts<{ json?: boolean }>().json === true;
  });
  try {
    await program.parseAsync(argv as string[]);
    return exitCode;
  } catch (error) {
    // help and version end with exit code 0 (commander throws them, see exitOverride)
    if (error instanceof CommanderError && error.exitCode === 0) return EXIT_CODES.ok;
    // The terminal-text helpers and writeJson come from core's root entry (zod, ajv and the rest
    // of core with it): loaded only on this error path, so `--help` and `--version` stay light.
    const [{ writeJson }, { terminalLine, terminalText }] = await Promise.all([
      import('./context.js'),
      import('./output/terminal-text.js'),
    ]);
    const jsonError = (code: string, message: string, hint?: string): void => {
      if (json) writeJson(io.stdout, { ok: false, error: { code, message, ...(hint ? { hint } : {}) } });
    };
    if (error instanceof CommanderError) {
      // every other commander error is a usage error
      jsonError('INVALID_ARGUMENTS', error.message.replace(/^error: /, ''), 'run with --help for usage');
      return EXIT_CODES.usage;
    }
    const style = createStyle(io.stderr);
    if (error instanceof CliError) {
      // messages quote what a server or a document said: inert on the terminal, exact in JSON
      io.stderr.write(`${style.red('toolplane: error:')} ${error.code}: ${terminalText(error.message)}\n`);
      if (error.hint) io.stderr.write(`${style.dim('hint:')} ${terminalText(error.hint)}\n`);
      jsonError(error.code, error.message, error.hint);
      return error.exitCode;
    }
    const { isConfigError, describe } = await import('./output/describe-error.js');
    const line = describe(error);
    io.stderr.write(`${style.red('toolplane: error:')} ${terminalLine(line)}\n`);
    const [code = 'INTERNAL', ...rest] = line.split(': ');
    if (isConfigError(error)) {
      const hint = 'run `toolplane config validate` to check the config';
      io.stderr.write(`${style.dim('hint:')} ${hint}\n`);
      jsonError(code, rest.join(': '), hint);
      return EXIT_CODES.usage;
    }
    jsonError(code, rest.join(': '));
    return EXIT_CODES.toolError;
  }
}
