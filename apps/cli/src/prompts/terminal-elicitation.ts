import type {
  ElicitationAnswer,
  ElicitationChannel,
  ElicitationField,
  ElicitationRequest,
  ElicitationValue,
} from '@toolplane/mcp-provider';
import { checkElicitationAnswer } from '@toolplane/mcp-provider';
import { terminalLine } from '../output/terminal-text.js';
import type { AskLine, TerminalReader } from './terminal-reader.js';

/** How many times a field is asked again after an answer it cannot take, before the form is cancelled. */
const TRIES_PER_FIELD = 3;

const YES = /^(y|yes|true)$/i;
const NO = /^(n|no|false)$/i;

/** What the person typed for a field, as the field's type; undefined for an empty line. */
function parseValue(field: ElicitationField, line: string): ElicitationValue | undefined | Error {
  const text = line.trim();
  if (text === '') return undefined;
  const choose = (part: string): string | undefined => {
    const options = field.options ?? [];
    const index = /^\d+$/.test(part) ? Number(part) - 1 : -1;
    return (options[index] ?? options.find((option) => option.value === part || option.title === part))
      ?.value;
  };
  switch (field.kind) {
    case 'boolean':
      if (YES.test(text)) return true;
      if (NO.test(text)) return false;
      return new Error('answer y or n');
    case 'number':
    case 'integer':
      return Number.isFinite(Number(text)) ? Number(text) : new Error('type a number');
    case 'choice':
      return choose(text) ?? new Error('type the number or the name of a choice');
    case 'choices': {
      const chosen = text.split(',').map((part) => choose(part.trim()));
      return chosen.every((value) => value !== undefined)
        ? (chosen as string[])
        : new Error('type the numbers or names of choices, separated by commas');
    }
    default:
      return line;
  }
}

/** The question for one field: its title, type, choices, default and whether it may be left out. */
function fieldPrompt(field: ElicitationField): string {
  const parts: string[] = [field.kind === 'choices' ? 'one or more, comma-separated' : field.kind];
  if (field.default !== undefined) parts.push(`Enter for ${JSON.stringify(field.default)}`);
  else if (!field.required) parts.push('Enter to leave out');
  const lines = [
    `  ${terminalLine(field.title)}${field.description ? `: ${terminalLine(field.description)}` : ''}`,
  ];
  for (const [index, option] of (field.options ?? []).entries())
    lines.push(`    ${index + 1}) ${terminalLine(option.title)}`);
  return `${lines.join('\n')}\n  (${parts.join('; ')}) > `;
}

/**
 * A server's questions asked on the shared terminal reader, one field at a time, each answer
 * checked against the requested schema before it is sent (asked again, at most
 * {@link TRIES_PER_FIELD} times, then the form is cancelled). Answers are sent to the server and
 * never printed or logged. Forms take their turn with the other prompts of the terminal
 * (approvals included). No answer within `timeoutMs` cancels; a terminal that closed, before or
 * during the form, fails the request with a message saying so (the server reads it). A URL
 * request prints the address and asks whether the person finished there.
 */
export function terminalElicitation(
  reader: TerminalReader,
  options: { readonly timeoutMs?: number } = {},
): ElicitationChannel {
  async function fill(request: ElicitationRequest, ask: AskLine): Promise<ElicitationAnswer> {
    reader.write(`\nMCP server ${terminalLine(request.server)} asks: ${terminalLine(request.message)}\n`);
    if (request.mode === 'url') {
      reader.write(`  open ${terminalLine(request.url)}\n`);
      const done = await ask('  done there? (y = done, n = decline, Enter = cancel) > ');
      return YES.test(done.trim())
        ? { action: 'accept' }
        : NO.test(done.trim())
          ? { action: 'decline' }
          : { action: 'cancel' };
    }
    const start = await ask('  answer? (y = fill in, n = decline, Enter = cancel) > ');
    if (NO.test(start.trim())) return { action: 'decline' };
    if (!YES.test(start.trim())) return { action: 'cancel' };
    const content: Record<string, ElicitationValue> = {};
    for (const field of request.fields) {
      let accepted = false;
      for (let attempt = 0; attempt < TRIES_PER_FIELD && !accepted; attempt++) {
        const value = parseValue(field, await ask(fieldPrompt(field)));
        const problem =
          value instanceof Error
            ? value.message
            : value === undefined
              ? field.required && field.default === undefined
                ? 'this field is required'
                : undefined
              : checkElicitationAnswer([field], { [field.name]: value })[0]?.replace(/^[^:]*: /, '');
        if (problem === undefined) {
          if (value !== undefined && !(value instanceof Error)) content[field.name] = value;
          accepted = true;
        } else reader.write(`  ${problem}\n`);
      }
      if (!accepted) {
        reader.write(`  ${terminalLine(field.title)} was not answered: the form is cancelled\n`);
        return { action: 'cancel' };
      }
    }
    return { action: 'accept', content };
  }

  return {
    modes: ['form', 'url'],
    async elicit(request, signal) {
      const timeout = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
      const limit = timeout ? AbortSignal.any([signal, timeout]) : signal;
      try {
        return await reader.turn(limit, (ask) => fill(request, ask));
      } catch (error) {
        // the server gave up, or nobody answered in time: a cancel
        if (limit.aborted) {
          if (timeout?.aborted) reader.write('\n(no answer in time: the form is cancelled)\n');
          return { action: 'cancel' };
        }
        throw new Error(`declined at the terminal: ${(error as Error).message}`);
      }
    },
  };
}
