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
