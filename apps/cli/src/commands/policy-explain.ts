import { loadConfig } from '../config/load.js';
import { type CommandContext, writeJson, writeLine } from '../context.js';
import { CliError, EXIT_CODES } from '../output/cli-error.js';
import { terminalText } from '../output/terminal-text.js';
import { withRuntime } from '../runtime/lifecycle.js';
import { viewOf } from './principal.js';

/** `toolplane policy explain <tool>`: the policy pipeline's steps for one tool and principal. */
export async function policyExplain(
  context: CommandContext,
  tool: string,
  options: { agent?: string; user?: string; channel?: string; json?: boolean },
): Promise<number> {
  const loaded = await loadConfig(context.cwd, context.configPath);
  return withRuntime(loaded, {}, async (runtime) => {
    const explanation = runtime.policy.explain(tool, viewOf(options, 'explain'));
    if (!explanation.known) {
      const names = runtime.orchestrator.listRegistered().map((entry) => entry.name);
      const close = names.filter((name) => name.includes(tool) || tool.includes(name)).slice(0, 5);
      throw new CliError(`no tool named ${tool} is configured`, {
        exitCode: EXIT_CODES.usage,
        code: 'TOOL_NOT_FOUND',
        hint:
          close.length > 0
            ? `did you mean ${close.join(', ')}?`
            : 'run `toolplane tools list` to see the names',
      });
    }
    if (options.json) {
      const { text: _text, ...rest } = explanation;
      writeJson(context.stdout, rest);
    } else writeLine(context.stdout, terminalText(explanation.text));
    return EXIT_CODES.ok;
  });
}
