import { createInterface } from 'node:readline';
import type {
  ElicitationAnswer,
  ElicitationChannel,
  ElicitationField,
  ElicitationRequest,
  ElicitationValue,
} from '@toolplane/mcp-provider';
import { checkElicitationAnswer } from '@toolplane/mcp-provider';
import { terminalLine } from '../output/terminal-text.js';

/** How many times a field is asked again after an answer it cannot take, before the form is cancelled. */
const TRIES_PER_FIELD = 3;

/** A terminal elicitation channel, and what closes its reader. */
export type TerminalElicitation = ElicitationChannel & { close(): void };

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
 * A server's questions asked on a terminal, one field at a time, each answer checked against the
 * requested schema before it is sent (asked again, at most {@link TRIES_PER_FIELD} times, then the
 * form is cancelled). Answers are sent to the server and never printed or logged. One question at
 * a time: a second form waits for the first. A URL request prints the address and asks whether
 * the person finished there.
 */
export function terminalElicitation(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): TerminalElicitation {
  // lines typed ahead of a question wait for it (a person may answer faster than a server asks)
  const reader = createInterface({ input, terminal: false });
  const typed: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let ended = false;
  reader.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else if (typed.length < 1000) typed.push(line);
  });
  reader.on('close', () => {
    ended = true;
    for (const next of waiting.splice(0)) next(undefined);
  });
  let queue: Promise<unknown> = Promise.resolve();
  const ask = (question: string, signal: AbortSignal): Promise<string> => {
    output.write(question);
    const line = typed.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (ended) return Promise.reject(new Error('the terminal closed'));
    return new Promise((resolve, reject) => {
      const answer = (value: string | undefined): void => {
        signal.removeEventListener('abort', abort);
        if (value === undefined) reject(new Error('the terminal closed'));
        else resolve(value);
      };
      const abort = (): void => {
        const at = waiting.indexOf(answer);
        if (at >= 0) waiting.splice(at, 1);
        reject(new Error('the server stopped waiting'));
      };
      if (signal.aborted) return abort();
      signal.addEventListener('abort', abort, { once: true });
      waiting.push(answer);
    });
  };

  async function fill(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    output.write(`\n${terminalLine(request.server)} asks: ${terminalLine(request.message)}\n`);
    if (request.mode === 'url') {
      output.write(`  open ${terminalLine(request.url)}\n`);
      const done = await ask('  done there? (y = done, n = decline, Enter = cancel) > ', signal);
      return YES.test(done.trim())
        ? { action: 'accept' }
        : NO.test(done.trim())
          ? { action: 'decline' }
          : { action: 'cancel' };
    }
    const start = await ask('  answer? (y = fill in, n = decline, Enter = cancel) > ', signal);
    if (NO.test(start.trim())) return { action: 'decline' };
    if (!YES.test(start.trim())) return { action: 'cancel' };
    const content: Record<string, ElicitationValue> = {};
    for (const field of request.fields) {
      let accepted = false;
      for (let attempt = 0; attempt < TRIES_PER_FIELD && !accepted; attempt++) {
        const value = parseValue(field, await ask(fieldPrompt(field), signal));
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
        } else output.write(`  ${problem}\n`);
      }
      if (!accepted) {
        output.write(`  ${terminalLine(field.title)} was not answered: the form is cancelled\n`);
        return { action: 'cancel' };
      }
    }
    return { action: 'accept', content };
  }

  return {
    modes: ['form', 'url'],
    elicit(request, signal) {
      const turn = queue.then(() => fill(request, signal));
      queue = turn.catch(() => undefined);
      // a server that gave up (or the end of input) is a cancel, not a failure
      return turn.catch((): ElicitationAnswer => ({ action: 'cancel' }));
    },
    close() {
      reader.close();
    },
  };
}
