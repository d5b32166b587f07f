import { ELICITATION_LIMITS } from './elicitation-fields.js';
import type { ElicitationField, ElicitationValue } from './types.js';

const FORMATS: Readonly<Record<string, (value: string) => boolean>> = {
  email: (value) => /^[^\s@]+@[^\s@]+$/.test(value),
  uri: (value) => URL.canParse(value),
  date: (value) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)),
  'date-time': (value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)),
};

/** What is wrong with one value, or undefined. Never quotes the value: it may be a secret. */
function valueProblem(field: ElicitationField, value: unknown): string | undefined {
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.kind === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return undefined;
    }
    case 'choice':
      return typeof value === 'string' && field.options?.some((option) => option.value === value)
        ? undefined
        : 'must be one of the choices offered';
    case 'choices': {
      if (!Array.isArray(value)) return 'must be a list of choices';
      const allowed = new Set(field.options?.map((option) => option.value));
      if (!value.every((each) => typeof each === 'string' && allowed.has(each)))
        return 'must hold only the choices offered';
      if (new Set(value).size !== value.length) return 'must not choose one twice';
      if (field.minItems !== undefined && value.length < field.minItems)
        return `must choose at least ${field.minItems}`;
      if (field.maxItems !== undefined && value.length > field.maxItems)
        return `must choose at most ${field.maxItems}`;
      return undefined;
    }
    default: {
      if (typeof value !== 'string') return 'must be text';
      const length = [...value].length;
      if (length > ELICITATION_LIMITS.maxTextLength)
        return `must be at most ${ELICITATION_LIMITS.maxTextLength} characters`;
      if (field.minLength !== undefined && length < field.minLength)
        return `must be at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && length > field.maxLength)
        return `must be at most ${field.maxLength} characters`;
      const format = field.format === undefined ? undefined : FORMATS[field.format];
      if (format && !format(value)) return `must be a valid ${field.format}`;
      return undefined;
    }
  }
}

/** The answer's content with the defaults of the fields it left out (SEP-1034). */
export function withDefaults(
  fields: readonly ElicitationField[],
  content: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...content };
  for (const field of fields) {
    if (filled[field.name] === undefined && field.default !== undefined) filled[field.name] = field.default;
  }
  return filled;
}

/**
 * Checks an answer against the form's fields: every required field given, each value of its
 * field's type, within its bounds and choices, no field the form did not ask for. Returns the
 * problems (`field: what`), empty when the answer is good. The values are never quoted.
 *
 * @example
 * checkElicitationAnswer(fields, { age: 'ten' }); // ['age: must be a number']
 */
export function checkElicitationAnswer(
  fields: readonly ElicitationField[],
  content: Readonly<Record<string, unknown>>,
): string[] {
  const problems: string[] = [];
  const known = new Map(fields.map((field) => [field.name, field]));
  for (const name of Object.keys(content)) {
    if (!known.has(name)) problems.push(`${name.slice(0, 100)}: was not asked for`);
  }
  for (const field of fields) {
    const value = content[field.name];
    if (value === undefined) {
      if (field.required) problems.push(`${field.name}: is required`);
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem) problems.push(`${field.name}: ${problem}`);
  }
  return problems;
}

/** The content of a good answer, typed. */
export type ElicitationContent = Record<string, ElicitationValue>;
