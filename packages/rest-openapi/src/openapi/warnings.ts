/** Folds warnings that differ only by operation into one line with a count. */
export function collapseWarnings(warnings: readonly string[]): string[] {
  const byReason = new Map<string, string[]>();
  const out: string[] = [];
  for (const warning of warnings) {
    const match = /^((?:skipped )?[A-Z]+ \S+): (.+)$/.exec(warning);
    if (!match) {
      out.push(warning);
      continue;
    }
    const labels = byReason.get(match[2] as string);
    if (labels) labels.push(match[1] as string);
    else byReason.set(match[2] as string, [match[1] as string]);
  }
  for (const [reason, labels] of byReason) {
    out.push(
      labels.length === 1
        ? `${labels[0]}: ${reason}`
        : `${labels[0]} and ${labels.length - 1} more: ${reason}`,
    );
  }
  return out;
}
