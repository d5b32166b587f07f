// One line per step of `agent run`, for a person. Everything a model, a tool or a server wrote is
// made inert for the terminal and cut to one line: the full text is in `--json`.
import type { AgentStep } from '@toolplane/subagents';
import type { Style } from '../output/style.js';
import { terminalLine } from '../output/terminal-text.js';

const MAX_SHOWN = 200;

/** `text` on one line, at most {@link MAX_SHOWN} characters. */
function short(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return terminalLine(line.length > MAX_SHOWN ? `${line.slice(0, MAX_SHOWN)}…` : line);
}

function argsText(args: unknown): string {
  try {
    return short(JSON.stringify(args) ?? '');
  } catch {
    return '';
  }
}

/**
 * The line a step prints (without its indent), or undefined for steps that print nothing.
 * A step's `agent` is the run's own; `child-spawned` and `child-ended` name the child in
 * `childAgent`.
 */
export function stepText(step: AgentStep, style: Style): string | undefined {
  const who = style.bold(terminalLine(step.agent));
  switch (step.type) {
    case 'run-started':
      return `${who} started${step.model ? ` (model ${terminalLine(step.model)})` : ''}: ${short(step.task)}`;
    case 'model-requested':
      return style.dim(`${terminalLine(step.agent)} asks the model (turn ${step.iteration})`);
    case 'text-streamed':
      return undefined;
    case 'message-received': {
      const tokens = step.usage ? style.dim(` (${step.usage.totalTokens} tokens)`) : '';
      if (step.text.trim() === '')
        return step.toolCalls.length === 0 ? `${who}: (an empty answer)${tokens}` : undefined;
      return `${who} says: ${short(step.text)}${tokens}`;
    }
    case 'tool-started':
      return `${who} ${style.cyan('→')} ${terminalLine(step.tool)} ${argsText(step.args)}`;
    case 'tool-finished':
      return step.ok
        ? `${who} ${style.green('←')} ${terminalLine(step.tool)} ok: ${short(step.text)}`
        : `${who} ${style.red('✗')} ${terminalLine(step.tool)} ${terminalLine(step.error?.code ?? 'failed')}: ${short(step.error?.message ?? step.text)}`;
    case 'status-reported':
      return `${who} status ${terminalLine(step.status.status)}: now ${short(step.status.now)}; pending ${short(step.status.pending)}`;
    case 'announcements-delivered':
      return `${who} hears: ${step.announcements
        .map((item) => `${terminalLine(item.agent)} (${terminalLine(item.childId)}) ${item.status}`)
        .join(', ')}`;
    case 'child-spawned':
      return `${who} spawned subagent ${terminalLine(step.childAgent)} (${terminalLine(step.childId)}): ${short(step.task)}`;
    case 'child-ended': {
      const child = `${terminalLine(step.childAgent)} (${terminalLine(step.childId)})`;
      const how = step.status === 'completed' ? style.green(step.status) : style.red(step.status);
      return `${who}: subagent ${child} ${how}${step.error ? `: ${terminalLine(step.error.code)}: ${short(step.error.message)}` : ''}`;
    }
    case 'run-ended':
      return `${who} ${step.status === 'completed' ? style.green('ended completed') : style.red(`ended ${step.status}`)}${step.error ? `: ${terminalLine(step.error.code)}: ${short(step.error.message)}` : ''}`;
    default:
      return undefined;
  }
}
