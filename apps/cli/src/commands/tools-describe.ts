import { riskOf } from '@toolplane/core';
import { loadConfig } from '../config/load.js';
import { type CommandContext, writeJson, writeLine } from '../context.js';
import { EXIT_CODES } from '../output/cli-error.js';
import { createStyle } from '../output/style.js';
import { terminalJson, terminalText } from '../output/terminal-text.js';
import { withRuntime } from '../runtime/lifecycle.js';
import { callVerdict } from './call-verdict.js';
import { viewOf } from './principal.js';
import { unknownToolError } from './unknown-tool.js';

/**
 * `toolplane tools describe <name>`: one tool's definition as a model sees it (description,
 * input and output schema, annotations), its risk, its provider and what the policy says.
 */
export async function toolsDescribe(
  context: CommandContext,
  name: string,
  options: { json?: boolean; agent?: string; user?: string },
): Promise<number> {
  const loaded = await loadConfig(context.cwd, context.configPath);
  return withRuntime(loaded, {}, async (runtime) => {
    const all = runtime.orchestrator.listRegistered();
    const tool = all.find((entry) => entry.name === name);
    if (!tool)
      throw unknownToolError(
        name,
        all.map((entry) => entry.name),
      );
    const view = viewOf(options, 'describe');
    const { spec, provider } = tool;
    const source = runtime.providers.find((entry) => entry.provider === provider)?.source;
    const visible = runtime.orchestrator.listRegistered(view).some((entry) => entry.name === name);
    const call = await callVerdict(runtime.policy, tool, view);
    const description = {
      name: tool.name,
      ...(spec.title ? { title: spec.title } : {}),
      description: spec.description,
      provider: { namespace: provider.namespace, kind: provider.kind, ...(source ? { source } : {}) },
      risk: riskOf(spec),
      ...(spec.sideEffect ? { sideEffect: spec.sideEffect } : {}),
      annotations: spec.annotations ?? {},
      inputSchema: spec.inputSchema,
      ...(spec.outputSchema ? { outputSchema: spec.outputSchema } : {}),
      visible,
      call,
    };
    if (options.json) {
      writeJson(context.stdout, description);
      return EXIT_CODES.ok;
    }
    const style = createStyle(context.stdout);
    const line = (label: string, value: string): void =>
      writeLine(context.stdout, `${style.bold(label.padEnd(12))} ${terminalText(value)}`);
    line('name', tool.name);
    if (spec.title) line('title', spec.title);
    line('provider', `${provider.namespace} (${provider.kind}${source ? `, ${source}` : ''})`);
    line('risk', `${description.risk}${spec.sideEffect ? ` (side effect: ${spec.sideEffect})` : ''}`);
    const annotations = Object.entries(spec.annotations ?? {}).map(
      ([key, value]) => `${key}=${String(value)}`,
    );
    line('annotations', annotations.length > 0 ? annotations.join(', ') : '(none)');
    line('visible', visible ? 'yes' : 'no (hidden by the policy: `toolplane policy explain` says why)');
    line('a call gets', `${call.decision}: ${call.reason}`);
    writeLine(context.stdout, style.bold('description'));
    writeLine(context.stdout, terminalText(spec.description));
    writeLine(context.stdout, style.bold('input schema'));
    writeLine(context.stdout, terminalJson(JSON.stringify(spec.inputSchema, null, 2)));
    if (spec.outputSchema) {
      writeLine(context.stdout, style.bold('output schema'));
      writeLine(context.stdout, terminalJson(JSON.stringify(spec.outputSchema, null, 2)));
    }
    return EXIT_CODES.ok;
  });
}
