import type { Node } from 'web-tree-sitter';
import { type AnalysisState, notUnderstood } from '../analysis-state.js';
import { namedChildrenOf } from '../parse/shell-parser.js';
import type { Scope } from '../scope.js';

/**
 * An unquoted heredoc body is expanded like a double-quoted string: its `$(...)` and
 * backticks run. Tree-sitter leaves backticks (and everything after `<<-`) as plain text, so
 * the body text is scanned here and every substitution in it is parsed as a script.
 */
export function analyzeHeredocBody(state: AnalysisState, scope: Scope, redirect: Node, body: Node): void {
  const start = namedChildrenOf(redirect).find((child) => child.type === 'heredoc_start');
  if (!start || /['"\\]/.test(start.text)) return; // a quoted delimiter: the body is literal
  const text = body.text.replace(/\\[\\`$]/g, '  ');
  const inner = { ...scope, depth: scope.depth + 1, stdinFrom: [] };
  let index = 0;
  while (index < text.length) {
    const dollar = text.indexOf('$(', index);
    const tick = text.indexOf('`', index);
    if (dollar < 0 && tick < 0) return;
    if (tick >= 0 && (dollar < 0 || tick < dollar)) {
      const close = text.indexOf('`', tick + 1);
      if (close < 0) {
        notUnderstood(state, 'a heredoc has an unterminated backtick', body.text);
        return;
      }
      state.nested.analyzeScript(state, inner, text.slice(tick + 1, close), body.text);
      index = close + 1;
    } else if (text[dollar + 2] === '(') {
      index = dollar + 3; // arithmetic: substitutions inside it are found by the scan
    } else {
      let open = 1;
      let at = dollar + 2;
      for (; at < text.length && open > 0; at++) {
        if (text[at] === '(') open++;
        else if (text[at] === ')') open--;
      }
      if (open > 0) {
        notUnderstood(state, 'a heredoc has an unterminated $(', body.text);
        return;
      }
      state.nested.analyzeScript(state, inner, text.slice(dollar + 2, at - 1), body.text);
      index = at;
    }
  }
}
