// The code of tool_output's grep and JSONPath workers (see output-workers.ts).

/** The worker's code (CommonJS, evaluated: the same in the sources and the build). */
export const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const { createReadStream, readFileSync } = require('node:fs');
const { createInterface } = require('node:readline');
parentPort.on('message', (job) => {
  (job.kind === 'grep' ? grep(job) : jsonpath(job)).then(
    (answer) => parentPort.postMessage(answer),
    (error) => parentPort.postMessage({ failed: String((error && error.message) || error) }),
  );
});
async function jsonpath({ file, path, maxChars }) {
  const text = readFileSync(file, 'utf8'); // a read that fails is a failure, not "not JSON"
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'not-json' };
  }
  // jsonpath-plus follows ".." by recursion: deeper than this it overflows the stack, after
  // seconds (a value 100,000 deep)
  if (path.includes('..') && deeperThan(json, MAX_DEPTH)) return { problem: 'deep' };
  let found;
  try {
    const { JSONPath } = require(workerData.jsonpathModule);
    found = JSONPath({ path, json, wrap: true, eval: false });
  } catch (error) {
    if (error instanceof RangeError) return { problem: 'deep' };
    return { problem: 'path', message: String(error && error.message || error) };
  }
  json = undefined;
  let answer;
  try {
    answer = writeAnswer(found, maxChars);
  } catch (error) {
    if (error instanceof RangeError) return { problem: 'large' };
    throw error;
  }
  if (answer.length <= maxChars) return { text: answer };
  const last = answer.charCodeAt(maxChars - 1);
  return { text: answer.slice(0, last >= 0xd800 && last <= 0xdbff ? maxChars - 1 : maxChars), cut: true };
}
/**
 * JSON.stringify(value, null, 2) of parsed JSON, written with a stack of its own (any depth) and
 * stopped once longer than maxChars: the whole text of a "$..*" over a large or deep output
 * grows with the square of its depth (a value 900 deep wrote for 17 s before being cut).
 */
function writeAnswer(value, maxChars) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  let out = '';
  const frames = [];
  const open = (item, indent) => {
    const keys = Array.isArray(item) ? null : Object.keys(item);
    const size = keys ? keys.length : item.length;
    if (size === 0) out += keys ? '{}' : '[]';
    else {
      out += keys ? '{' : '[';
      frames.push({ item, keys, size, next: 0, indent });
    }
  };
  open(value, '');
  while (frames.length > 0 && out.length <= maxChars) {
    const top = frames[frames.length - 1];
    if (top.next === top.size) {
      out += '\\n' + top.indent + (top.keys ? '}' : ']');
      frames.pop();
      continue;
    }
    const inner = top.indent + '  ';
    out += (top.next === 0 ? '\\n' : ',\\n') + inner;
    let member;
    if (top.keys) {
      const key = top.keys[top.next];
      out += JSON.stringify(key) + ': ';
      member = top.item[key];
    } else member = top.item[top.next];
    top.next++;
    if (member !== null && typeof member === 'object') open(member, inner);
    else out += JSON.stringify(member);
  }
  return out;
}
const MAX_DEPTH = 1000;
/** Whether a parsed value nests deeper than limit levels (walked with a stack of its own). */
function deeperThan(value, limit) {
  const values = [value];
  const depths = [0];
  while (values.length > 0) {
    const item = values.pop();
    const depth = depths.pop();
    if (item === null || typeof item !== 'object') continue;
    if (depth > limit) return true;
    const members = Array.isArray(item) ? item : Object.values(item);
    for (let i = 0; i < members.length; i++) {
      const member = members[i];
      if (member !== null && typeof member === 'object') {
        values.push(member);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
async function grep({ file, pattern, flags, context, maxMatches, maxLine, lines }) {
  const regex = new RegExp(pattern, flags);
  const out = [];
  const before = [];
  let number = 0, matches = 0, after = 0, lastPrinted = 0;
  const input = createReadStream(file, { encoding: 'utf8' });
  const reader = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of reader) {
      number++;
      const probe = line.length > maxLine ? line.slice(0, maxLine) : line;
      if (regex.test(probe)) {
        matches++;
        if (matches > maxMatches) break;
        const start = number - before.length;
        if (lastPrinted && start > lastPrinted + 1) out.push('--');
        for (let i = 0; i < before.length; i++) out.push(start + i + '-' + before[i]);
        before.length = 0;
        out.push(number + ':' + line);
        lastPrinted = number;
        after = context;
      } else if (after > 0) {
        out.push(number + '-' + line);
        lastPrinted = number;
        after--;
      } else if (context > 0) {
        before.push(line);
        if (before.length > context) before.shift();
      }
    }
  } finally {
    reader.close();
    // closing the reader leaves its stream open: a grep that stopped at its match limit kept
    // the file descriptor for as long as the warm worker lived
    input.destroy();
  }
  const shown = Math.min(matches, maxMatches);
  const header = '[' + shown + ' matching line' + (shown === 1 ? '' : 's') +
    (matches > maxMatches ? ' (stopped at ' + maxMatches + ')' : '') + ' of ' + lines + ' lines]';
  return { text: header + '\\n' + out.join('\\n') };
}
`;
