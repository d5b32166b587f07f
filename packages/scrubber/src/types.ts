import type { FakeSource } from './alphabets.js';

/** Where a rule matched, in the coordinates of the scanned text. */
export interface RuleMatch {
  /** First character to redact. */
  readonly start: number;
  /** One past the last character to redact. */
  readonly end: number;
  /** Kind named in the redaction marker; defaults to the rule id. */
  readonly kind?: string;
}

/** A true-positive sample of a rule: `secret` is the part of `text` that must be redacted. */
export interface PositiveSample {
  readonly text: string;
  readonly secret: string;
  /** Kind expected in the marker when it differs from the rule id. */
  readonly kind?: string;
}

/**
 * One detector. A rule is only ever run at an occurrence of one of its `anchors` (a literal
 * the match starts with, or for context rules the separator it hangs on), so adding rules does
 * not add passes over the whole input.
 */
export interface SecretRule {
  /** Stable id, also the default kind in `[REDACTED:<kind>]`. */
  readonly id: string;
  readonly description: string;
  /** Literals whose occurrence triggers the rule; the match is tried where the anchor starts. */
  readonly anchors: readonly string[];
  /**
   * Linear-time sticky regex tried at the anchor position. When it has a capture group, group 1
   * is the secret (the rest is context); otherwise the whole match is.
   */
  readonly pattern?: RegExp;
  /**
   * Custom matcher, for rules one regex cannot express (context-dependent values). It may return
   * several spans (the values of a Kubernetes Secret's `data`, found from its `kind`), and spans
   * before the anchor.
   */
  readonly match?: (text: string, anchorIndex: number) => RuleMatch | readonly RuleMatch[] | undefined;
  /**
   * For rules that need a whole structure to decide (a Secret manifest's `kind` may follow its
   * `data`): where such a structure still open at the end of `text` begins, or `text.length`.
   * A stream holds its text from there (up to 16 KB) until the structure closes. `anchors`, when
   * given, holds where the rule's anchors start in `text`, ascending (as for {@link carry}).
   */
  readonly openFrom?: (text: string, anchors?: Int32Array) => number;
  /**
   * For rules that read a structure longer than a stream keeps (a Secret of many keys, a value
   * of megabytes): when a stream cuts at `at` inside such a structure, a short synthetic text
   * that reopens it, so the text after the cut is read as part of it (see {@link Carry}).
   * `anchors`, when given, holds where the rule's anchors start in `text`, ascending (the scan
   * of that text just found them), so the rule need not search the text for them again.
   */
  readonly carry?: (text: string, at: number, maxBack: number, anchors?: Int32Array) => Carry | undefined;
  /** Extra check on the secret text (placeholders, randomness); false drops the match. */
  readonly validate?: (secret: string) => boolean;
  /** Longest span, in characters, between the anchor and the end of a match. */
  readonly maxLength: number;
  /** Realistic fakes in several syntactic contexts; generated at test time, never stored. */
  readonly positives: (fake: FakeSource) => readonly PositiveSample[];
  /** Placeholders and near misses that must not match. */
  readonly negatives: (fake: FakeSource) => readonly string[];
}

/**
 * How a stream resumes inside a structure it cut: it reads `prefix` followed by the text from
 * `from` (at most `maxBack` before the cut) as what came before the rest. When `inValue`, `from`
 * is inside a value the rule redacts, and the stream may cut the value there (its marker is
 * already out; the rest of the value is dropped without a second marker).
 */
export interface Carry {
  readonly prefix: string;
  readonly from: number;
  readonly inValue: boolean;
}

/** One redacted span. Never carries the secret itself. */
export interface Finding {
  readonly kind: string;
  readonly ruleId: string;
  readonly start: number;
  readonly end: number;
}

/** What {@link Scrubber.scrub} returns. */
export interface ScrubOutcome {
  readonly text: string;
  readonly findings: readonly Finding[];
}
