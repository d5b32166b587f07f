function bigrams(text: string): Map<string, number> {
  const grams = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const gram = text.slice(i, i + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return grams;
}

/** Dice similarity of two strings over character bigrams, 0..1. */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const left = bigrams(a);
  const right = bigrams(b);
  let shared = 0;
  for (const [gram, count] of left) shared += Math.min(count, right.get(gram) ?? 0);
  return (2 * shared) / (a.length - 1 + b.length - 1);
}

/** 1-based line number of a character offset. */
export function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Start offsets of every occurrence of `needle` (non-overlapping). */
export function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/**
 * Why `needle` was not found and where the closest text is: the same text with other
 * whitespace, or the lines most like its first line.
 */
export function describeNearest(text: string, needle: string): string {
  const lines = text.split('\n');
  const needleLines = needle.split('\n').map(collapse);
  const first = needleLines.find((line) => line.length > 0) ?? '';
  if (first === '') return 'the text to find is only whitespace';
  const width = needleLines.length;
  const target = collapse(needle);
  for (let i = 0; i + width <= lines.length; i++) {
    if (collapse(lines.slice(i, i + width).join('\n')) === target) {
      return `the same text exists with different whitespace or indentation at line ${i + 1}; copy it exactly from read output (without the line-number prefix)`;
    }
  }
  const ranked = lines
    .map((line, i) => ({ line: i + 1, text: line, score: similarity(collapse(line), first) }))
    .filter((candidate) => candidate.score >= 0.5)
    .sort((a, b) => b.score - a.score || a.line - b.line)
    .slice(0, 3);
  if (ranked.length === 0) return 'nothing similar was found; read the file again to see its current content';
  const shown = ranked.map((candidate) => `  line ${candidate.line}: ${candidate.text.trim().slice(0, 200)}`);
  return `the closest lines are:\n${shown.join('\n')}`;
}
