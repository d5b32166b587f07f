/**
 * The first TypeScript block of a README (a fence opened with ```ts or ```typescript): the
 * example a reader copies first. Undefined when the README has none.
 */
export function firstTypeScriptBlock(readme: string): string | undefined {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => /^```(ts|typescript)\s*$/.test(line));
  if (start === -1) return undefined;
  const end = lines.findIndex((line, index) => index > start && /^```\s*$/.test(line));
  if (end === -1) return undefined;
  return `${lines.slice(start + 1, end).join('\n')}\n`;
}
