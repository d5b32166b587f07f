// ANSI escape sequences take no room on screen.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

function visibleLength(text: string): number {
  return text.replace(ANSI, '').length;
}

/** One column of {@link formatTable}. */
export interface Column {
  readonly header: string;
  /** The last column may be cut to fit `width`. */
  readonly align?: 'left' | 'right';
}

/**
 * A plain-text table: a header row and aligned columns; the last column is cut with `…` so a
 * row fits `width` (when given).
 */
export function formatTable(
  columns: readonly Column[],
  rows: readonly (readonly string[])[],
  width?: number,
): string {
  // a loop, not Math.max(...rows): spreading 130,000 rows as arguments overflows the stack (a
  // server with that many tools made `tools list` fail with INTERNAL)
  const widths = columns.map((column) => visibleLength(column.header));
  for (const row of rows)
    for (const [index, cell] of row.entries())
      widths[index] = Math.max(widths[index] ?? 0, visibleLength(cell));
  const render = (cells: readonly string[]): string => {
    const parts = cells.map((cell, index) => {
      const pad = ' '.repeat(Math.max(0, (widths[index] ?? 0) - visibleLength(cell)));
      if (index === cells.length - 1) return cell;
      return columns[index]?.align === 'right' ? pad + cell : cell + pad;
    });
    let line = parts.join('  ');
    if (width !== undefined && width > 20 && visibleLength(line) > width && !line.includes('\u001b[')) {
      line = `${line.slice(0, width - 1)}…`;
    }
    return line.trimEnd();
  };
  return [render(columns.map((column) => column.header)), ...rows.map(render)].join('\n');
}
