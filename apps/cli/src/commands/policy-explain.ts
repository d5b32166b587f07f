import { loadConfig } from '../config/load.js';
import { type CommandContext, writeJson, writeLine } from '../context.js';
import { EXIT_CODES } from '../output/cli-error.js';
import { terminalText } from '../output/terminal-text.js';
import { hiddenProviderLine, hiddenProviders } from '../runtime/hidden-providers.js';
import { withRuntime } from '../runtime/lifecycle.js';
import { callVerdict } from './call-verdict.js';
import { viewOf } from './principal.js';
import { unknownToolError } from './unknown-tool.js';

/**
 * `toolplane policy explain <tool>`: the policy pipeline's steps for one tool and principal,
 * and what a call of it would get (allow, ask or deny, and why).
 */
export async function policyExplain(
  context: CommandContext,
  tool: string,
  options: { agent?: string; user?: string; channel?: string; json?: boolean },
): Promise<number> {
  const loaded = await loadConfig(context.cwd, context.configPath);
  return withRuntime(loaded, {}, async (runtime) => {
    const view = viewOf(options, 'explain');
    const explanation = runtime.policy.explain(tool, view);
    const registered = runtime.orchestrator.listRegistered().find((entry) => entry.name === tool);
    if (!explanation.known || !registered)
      throw unknownToolError(
        tool,
        runtime.orchestrator.listRegistered().map((entry) => entry.name),
      );
    const call = await callVerdict(runtime.policy, registered, view);
    const hidden = hiddenProviders(runtime, view).find(
      (entry) => entry.namespace === registered.provider.namespace,
    );
    if (options.json) {
      const { text: _text, ...rest } = explanation;
      writeJson(context.stdout, {
        ...rest,
        call,
        ...(hidden ? { providerHidden: { namespace: hidden.namespace, tools: hidden.tools } } : {}),
      });
      return EXIT_CODES.ok;
    }
    writeLine(context.stdout, terminalText(explanation.text));
    const answer = call.decision === 'depends' ? 'depends on the command' : call.decision.toUpperCase();
    writeLine(context.stdout, terminalText(`  a call gets: ${answer}: ${call.reason}`));
    if (hidden) writeLine(context.stdout, terminalText(`  note: ${hiddenProviderLine(hidden)}`));
    return EXIT_CODES.ok;
  });
}
