import type { Finding } from './types.js';

/**
 * Sorts findings and merges overlapping ones into one span (named by the finding that starts
 * first; on a tie, by the longer one, then by the earlier rule).
 */
export function mergeFindings(findings: Finding[], priority: (ruleId: string) => number): Finding[] {
  if (findings.length <= 1) return findings;
  findings.sort((a, b) => a.start - b.start || b.end - a.end || priority(a.ruleId) - priority(b.ruleId));
  const merged: Finding[] = [];
  let current = findings[0] as Finding;
  for (let i = 1; i < findings.length; i++) {
    const next = findings[i] as Finding;
    if (next.start < current.end) {
      if (next.end > current.end) current = { ...current, end: next.end };
    } else {
      merged.push(current);
      current = next;
    }
  }
  merged.push(current);
  return merged;
}

/** Replaces each (merged, sorted) finding's span by its marker. */
export function applyFindings(
  text: string,
  findings: readonly Finding[],
  marker: (kind: string) => string,
): string {
  if (findings.length === 0) return text;
  let out = '';
  let position = 0;
  for (const finding of findings) {
    out += text.slice(position, finding.start) + marker(finding.kind);
    position = finding.end;
  }
  return out + text.slice(position);
}

/**
 * Redacts consecutive `pieces` of one text with the findings of their concatenation: a span
 * crossing a boundary gets its marker in the piece where it starts, and its rest is removed
 * from the following pieces, so each piece keeps its place.
 */
export function applyFindingsToPieces(
  pieces: readonly string[],
  findings: readonly Finding[],
  marker: (kind: string) => string,
): string[] {
  const out: string[] = [];
  let offset = 0;
  let next = 0;
  for (const piece of pieces) {
    const end = offset + piece.length;
    let text = '';
    let position = offset;
    // A finding may continue into later pieces: it stays current until it ends.
    while (next < findings.length) {
      const finding = findings[next] as Finding;
      if (finding.start >= end) break;
      if (finding.start >= position)
        text += piece.slice(position - offset, finding.start - offset) + marker(finding.kind);
      position = Math.max(position, Math.min(finding.end, end));
      if (finding.end > end) break;
      next++;
    }
    out.push(text + piece.slice(position - offset));
    offset = end;
  }
  return out;
}

/** Replaces each finding's span by as many `A`s: base64 stays valid and keeps its length. */
export function blankFindings(text: string, findings: readonly Finding[]): string {
  if (findings.length === 0) return text;
  let out = '';
  let position = 0;
  for (const finding of findings) {
    out += text.slice(position, finding.start) + 'A'.repeat(finding.end - finding.start);
    position = finding.end;
  }
  return out + text.slice(position);
}
