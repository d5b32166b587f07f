import { ToolError } from '@toolplane/core';
import { compileRules } from './compiled-rules.js';
import { decodedViews } from './decoded-view.js';
import { type AddSecretOptions, createExactSecrets } from './exact-secrets.js';
import { applyFindings, applyFindingsToPieces, blankFindings, mergeFindings } from './redact.js';
import { DEFAULT_RULES } from './rules/index.js';
import { type StreamScrubber, createStream } from './stream.js';
import type { Finding, ScrubOutcome, SecretRule } from './types.js';
import { scrubJsonValue } from './value.js';
import { forgetMemos } from './rules/memos.js';

/** Options of {@link createScrubber}. */
export interface ScrubberOptions {
  /** Rules to run; {@link DEFAULT_RULES} when omitted. Add your own with `[...DEFAULT_RULES, mine]`. */
  readonly rules?: readonly SecretRule[];
  /** Ids of rules to leave out (for example `['assignment']`). */
  readonly disabledRules?: readonly string[];
  /** Exact values to redact wherever they appear (as-is, JSON-escaped, URL-encoded, base64). */
  readonly secrets?: Iterable<string>;
  /** Values shorter than this are not registered as exact secrets (default 6). */
  readonly minSecretLength?: number;
  /** The marker that replaces a secret; default `[REDACTED:<kind>]`. */
  readonly marker?: (kind: string) => string;
}

/** Redacts credentials from text, JSON values and streams. */
export interface Scrubber {
  /** Redacts `text`; findings give kind and position of each redacted span in the input. */
  scrub(text: string): ScrubOutcome;
  /** Just the redacted text (for logs). */
  scrubText(text: string): string;
  /** A copy of a JSON value with every string (and object key) redacted; stays valid JSON. */
  scrubValue<T>(value: T): T;
  /** Registers an exact value (also found URL-encoded, JSON-escaped and base64-encoded). */
  addSecret(value: string, options?: AddSecretOptions): boolean;
  /**
   * Redacts consecutive pieces of one text (content blocks, log fragments) as one text, so a
   * secret split across pieces is still found; the marker goes in the piece where the secret
   * starts. Findings are in coordinates of the concatenation.
   */
  scrubPieces(pieces: readonly string[]): {
    readonly pieces: string[];
    readonly findings: readonly Finding[];
  };
  /**
   * Redacts only the exact secret values, for base64 binary payloads where patterns would be
   * noise. With `{ base64: true }` each span becomes as many `A`s instead of the marker, so the
   * payload stays valid base64 of the same length (the secret's bytes decode as zeros).
   */
  scrubExact(text: string, options?: { readonly base64?: boolean }): string;
  /** A scrubber for chunked output that also redacts secrets split across chunks. */
  createStreamScrubber(): StreamScrubber;
  /** The active rules. */
  readonly rules: readonly SecretRule[];
}

const defaultMarker = (kind: string): string => `[REDACTED:${kind}]`;

/** Rejects options of the wrong shape up front (a plain-JS caller gets no type errors). */
function checkOptions(options: ScrubberOptions): void {
  const invalid = (message: string): never => {
    throw new ToolError('CONFIG_INVALID', message);
  };
  if (typeof options !== 'object' || options === null)
    invalid('createScrubber options must be an object such as { secrets: [value] }');
  if (options.rules !== undefined && !Array.isArray(options.rules))
    invalid('rules must be an array of rules, e.g. [...DEFAULT_RULES, myRule]');
  if (options.rules?.some((rule) => typeof rule !== 'object' || rule === null))
    invalid('rules must hold rule objects (id, anchors, pattern or match, maxLength); found a non-object');
  if (options.disabledRules !== undefined && !Array.isArray(options.disabledRules))
    invalid("disabledRules must be an array of rule ids, e.g. ['assignment']");
  const secrets = options.secrets;
  if (
    secrets !== undefined &&
    (typeof secrets === 'string' ||
      typeof secrets !== 'object' ||
      secrets === null ||
      typeof (secrets as Iterable<string>)[Symbol.iterator] !== 'function')
  )
    invalid('secrets must be a list of strings; wrap a single value: { secrets: [value] }');
  if (options.marker !== undefined && typeof options.marker !== 'function')
    invalid(
      'marker must be a function from the kind to the replacement text, e.g. (kind) => "<" + kind + ">"',
    );
}

/**
 * Creates a scrubber.
 *
 * @example
 * const scrubber = createScrubber({ secrets: [process.env.GITHUB_TOKEN ?? ''] });
 * scrubber.scrub('token=ghp_...').text; // 'token=[REDACTED:github_token]'
 */
export function createScrubber(options: ScrubberOptions = {}): Scrubber {
  checkOptions(options);
  const disabled = new Set(options.disabledRules ?? []);
  const allRules = options.rules ?? DEFAULT_RULES;
  const unknown = [...disabled].filter((id) => !allRules.some((rule) => rule?.id === id));
  if (unknown.length > 0)
    throw new ToolError(
      'CONFIG_INVALID',
      `disabledRules names ${unknown.map((id) => JSON.stringify(id)).join(', ')}, which no rule has; known ids: ${allRules.map((rule) => rule?.id).join(', ')}`,
    );
  const rules = allRules.filter((rule) => !disabled.has(rule?.id));
  const ids = new Set<string>();
  for (const rule of rules) {
    if (ids.has(rule.id))
      throw new ToolError('CONFIG_INVALID', `two rules have the id ${rule.id}; ids must be unique`);
    ids.add(rule.id);
  }
  const minSecretLength = options.minSecretLength ?? 6;
  if (!Number.isInteger(minSecretLength) || minSecretLength < 2)
    throw new ToolError('CONFIG_INVALID', `minSecretLength must be an integer >= 2, got ${minSecretLength}`);
  const marker = options.marker ?? defaultMarker;
  const compiled = compileRules(rules);
  const exact = createExactSecrets(minSecretLength);
  const priorities = new Map(rules.map((rule, index) => [rule.id, index]));
  const priority = (ruleId: string): number =>
    ruleId === 'exact' ? -1 : (priorities.get(ruleId) ?? rules.length);

  /** Drops what rules and the compiled scanner kept of the last text. */
  const forget = (): void => {
    forgetMemos();
    compiled.forget();
  };
  const find = (text: string): Finding[] => {
    const findings: Finding[] = [];
    compiled.scan(text, findings, true);
    exact.scan(text, findings, compiled.lineBreaks(text));
    // Colour codes, invisible characters, escapes and look-alike letters can split or disguise a
    // secret or its key name: scan the decoded reading too, and map its findings back.
    const reach = Math.max(compiled.maxShortLength, exact.maxLength) + 64;
    for (const view of decodedViews(text, reach, compiled.wideTriggers(text))) {
      const decoded: Finding[] = [];
      compiled.scan(view.text, decoded);
      exact.scan(view.text, decoded);
      for (const finding of decoded) {
        if ((view.openStart && finding.start === 0) || (view.openEnd && finding.end === view.text.length))
          continue;
        findings.push({
          ...finding,
          start: view.starts[finding.start] as number,
          end: view.ends[finding.end - 1] as number,
        });
      }
    }
    return mergeFindings(findings, priority);
  };
  const scrub = (text: string): ScrubOutcome => {
    if (typeof text !== 'string')
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `scrub expects a string, got ${text === null ? 'null' : typeof text}`,
      );
    const findings = find(text);
    forget();
    return { text: applyFindings(text, findings, marker), findings };
  };
  const scrubPieces = (pieces: readonly string[]) => {
    if (!Array.isArray(pieces) || pieces.some((piece) => typeof piece !== 'string'))
      throw new ToolError('INVALID_ARGUMENTS', 'scrubPieces expects an array of strings');
    const findings = find(pieces.join(''));
    forget();
    return { pieces: applyFindingsToPieces(pieces, findings, marker), findings };
  };
  const scrubExactOnly = (text: string, exactOptions?: { readonly base64?: boolean }): string => {
    if (typeof text !== 'string')
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `scrubExact expects a string, got ${text === null ? 'null' : typeof text}`,
      );
    const findings: Finding[] = [];
    exact.scan(text, findings);
    const merged = mergeFindings(findings, priority);
    return exactOptions?.base64 ? blankFindings(text, merged) : applyFindings(text, merged, marker);
  };
  const scrubber: Scrubber = {
    rules,
    scrub,
    scrubText: (text) => scrub(text).text,
    scrubValue: (value) => scrubJsonValue(value, scrub),
    scrubPieces,
    scrubExact: scrubExactOnly,
    addSecret: (value, addOptions) => exact.add(value, addOptions),
    createStreamScrubber: () =>
      createStream({
        find,
        marker,
        holdBack: () => Math.max(compiled.maxShortLength, exact.maxLength) + 16,
        openFrom: (text) => compiled.openFrom(text),
        carry: (text, at, maxBack) => compiled.carry(text, at, maxBack),
        forget,
        carriers: compiled.carriers,
      }),
  };
  for (const secret of options.secrets ?? []) {
    if (secret) exact.add(secret);
  }
  return scrubber;
}
