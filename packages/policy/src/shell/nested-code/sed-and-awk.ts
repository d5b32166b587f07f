import { type AnalysisState, notUnderstood } from '../analysis-state.js';
import type { SimpleCommand } from '../command-line-analysis.js';
import { judgeWrittenFile } from '../file-writes/written-files.js';
import type { Scope } from '../scope.js';
import { staticWord } from '../words/shell-word.js';

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

/** Characters after which a `/` in awk opens a regular expression rather than dividing. */
const BEFORE_REGEX = new Set(['', '~', '!', '(', ',', '{', '}', ';', '&', '|', '=', '\n']);

/** One awk statement, and a copy whose string and regex contents are blanked (the same length). */
interface AwkStatement {
  readonly text: string;
  readonly masked: string;
}

/**
 * An awk program cut into statements at `;`, line breaks and braces outside string and regex
 * literals (`print "a;b" > "f"` is one statement); one linear pass.
 */
function awkStatements(program: string): AwkStatement[] {
  const statements: AwkStatement[] = [];
  let start = 0;
  let masked = '';
  let quote: string | undefined;
  let previous = '';
  for (let at = 0; at < program.length; at++) {
    const char = program[at] as string;
    if (quote !== undefined) {
      if (char === '\\' && at + 1 < program.length) {
        masked += '__';
        at++;
      } else if (char === quote) {
        quote = undefined;
        masked += char;
        previous = char;
      } else masked += '_';
      continue;
    }
    if (char === '"' || (char === '/' && BEFORE_REGEX.has(previous))) {
      quote = char;
      masked += char;
    } else if (char === ';' || char === '\n' || char === '{' || char === '}') {
      statements.push({ text: program.slice(start, at), masked });
      start = at + 1;
      masked = '';
      previous = char;
    } else {
      masked += char;
      if (char !== ' ' && char !== '\t') previous = char;
    }
  }
  statements.push({ text: program.slice(start), masked });
  // An unclosed literal (which awk refuses) is scanned again unmasked: nothing is hidden by it.
  if (quote !== undefined)
    statements.push(...program.split(/[;\n{}]/).map((text) => ({ text, masked: text })));
  return statements;
}

/** `print ... | "cmd"` in an awk program (a linear scan: a regex would backtrack on `print print ...`). */
function printsToPipe(program: string): boolean {
  return awkStatements(program).some(({ masked }) => {
    const at = masked.indexOf('print');
    return at >= 0 && masked.includes('|', at);
  });
}

/**
 * The files `print ... > "FILE"` and `printf ... >> "FILE"` write in an awk program (undefined
 * for a file named by an expression); a linear scan of each statement after its `print`, outside
 * string literals (`print "x > y"` writes nothing).
 */
function printsToFiles(program: string): (string | undefined)[] {
  const files: (string | undefined)[] = [];
  for (const { text, masked } of awkStatements(program)) {
    const at = masked.indexOf('print');
    const arrow = at < 0 ? -1 : masked.indexOf('>', at);
    if (arrow < 0) continue;
    const rest = text
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
export function inspectInlineScripts(state: AnalysisState, scope: Scope, command: SimpleCommand): void {
  const args = command.args.map((word) => word.text);
  if (command.name === 'sed' || command.name === 'gsed') {
    for (const script of sedScripts(args)) {
      if (!SED_EXECUTE.test(script)) continue;
      notUnderstood(state, 'sed script runs commands or writes files (e/w)', command.text);
      for (const match of script.matchAll(SED_E_COMMAND)) {
        state.nested.analyzeScript(
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
