import type { SimpleCommand } from './analysis.js';
import { type AnalysisState, type Scope, notUnderstood } from './context.js';
import type { NestedAnalyzer } from './run-command.js';
import { staticWord } from './shell-word.js';
import { judgeWrittenFile } from './written-files.js';

// In `s/a/b/flags` a part is escaped pairs or characters that are neither the delimiter nor a
// backslash: one way to match each character, so no backtracking blow-up on `\\\\\\...`.
const SED_EXECUTE =
  /(^|[;\n{}]|^\s*\d+|\$)\s*[eEwW](\s|$)|s([^\\\n])(?:\\.|(?!\3)[^\\])*\3(?:\\.|(?!\3)[^\\])*\3[gpiImM0-9]*[ew]/s;
const SED_E_COMMAND = /(?:^|[;\n{])\s*(?:\d+|\$|\/[^/]*\/)?(?:,\s*(?:\d+|\$|\/[^/]*\/))?\s*e\s+([^;\n}]+)/g;

function sedScripts(args: readonly string[]): string[] {
  const scripts: string[] = [];
  let sawExpression = false;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] as string;
    if (arg === '-e' || arg === '--expression') {
      scripts.push(args[index + 1] ?? '');
      sawExpression = true;
      index++;
    } else if (arg.startsWith('--expression=')) {
      scripts.push(arg.slice('--expression='.length));
      sawExpression = true;
    } else if (arg === '-f' || arg === '--file') {
      index++;
    } else if (!arg.startsWith('-') && !sawExpression) {
      scripts.push(arg);
      sawExpression = true;
    }
  }
  return scripts;
}

/** `print ... | "cmd"` in an awk program (a linear scan: a regex would backtrack on `print print ...`). */
function printsToPipe(program: string): boolean {
  return program.split(';').some((statement) => {
    const at = statement.indexOf('print');
    return at >= 0 && statement.includes('|', at);
  });
}

/**
 * The files `print ... > "FILE"` and `printf ... >> "FILE"` write in an awk program (undefined
 * for a file named by an expression); a linear scan of each statement after its `print`.
 */
function printsToFiles(program: string): (string | undefined)[] {
  const files: (string | undefined)[] = [];
  for (const statement of program.split(/[;\n{}]/)) {
    const at = statement.indexOf('print');
    const arrow = at < 0 ? -1 : statement.indexOf('>', at);
    if (arrow < 0) continue;
    const rest = statement
      .slice(arrow + 1)
      .replace(/^>/, '')
      .trimStart();
    const end = rest.startsWith('"') ? rest.indexOf('"', 1) : -1;
    files.push(end > 0 ? rest.slice(1, end) : undefined);
  }
  return files;
}

/**
 * Inline programs that can run commands or write files by themselves: `sed` with the `e`
 * command or the `e`/`w` flags, `awk` with `system()` or pipes. The commands they run are
 * parsed when they can be read (`sed 'e rm -rf /'`), and the command is never auto-allowed.
 */
export function inspectInlineScripts(
  state: AnalysisState,
  scope: Scope,
  command: SimpleCommand,
  nested: NestedAnalyzer,
): void {
  const args = command.args.map((word) => word.text);
  if (command.name === 'sed' || command.name === 'gsed') {
    for (const script of sedScripts(args)) {
      if (!SED_EXECUTE.test(script)) continue;
      notUnderstood(state, 'sed script runs commands or writes files (e/w)', command.text);
      for (const match of script.matchAll(SED_E_COMMAND)) {
        nested(
          state,
          { ...scope, depth: scope.depth + 1, via: [...scope.via, 'sed e'] },
          match[1] as string,
          command.text,
        );
      }
    }
    if (command.args.some((word) => word.dynamic))
      notUnderstood(state, 'sed script computed at run time', command.text);
  } else if (/^(g|m|n)?awk$/.test(command.name)) {
    if (args.some((arg) => /system\s*\(|\|\s*getline/.test(arg) || printsToPipe(arg)))
      notUnderstood(state, 'awk program runs commands', command.text);
    for (const arg of args)
      for (const file of printsToFiles(arg))
        if (file === undefined)
          notUnderstood(state, 'awk program writes to a file named at run time', command.text);
        else judgeWrittenFile(state, staticWord(file), command.text);
  }
}
