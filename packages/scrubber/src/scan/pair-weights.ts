// How often pairs of ASCII characters turn up in tool output (source code, JSON, logs, prose), on
// a rough scale: the anchor automaton keys every anchor on its rarest pair of adjacent
// characters, so the one pass over a text stops at as few places as it can.

const WEIGHTS = new Float64Array(128).fill(4);
for (const character of ' \n\t') WEIGHTS[character.charCodeAt(0)] = 12;
for (const character of 'etaoinsr') WEIGHTS[character.charCodeAt(0)] = 9;
for (const character of 'lcdhu') WEIGHTS[character.charCodeAt(0)] = 8;
for (const character of 'mpfgybwvk') WEIGHTS[character.charCodeAt(0)] = 6;
for (const character of 'jxqz') WEIGHTS[character.charCodeAt(0)] = 2;
for (const character of '.,;()"\'/{}_=:-') WEIGHTS[character.charCodeAt(0)] = 7;
for (let code = 48; code <= 57; code++) WEIGHTS[code] = 5;
for (let code = 65; code <= 90; code++) WEIGHTS[code] = 3;
for (const character of 'ESTAIRN') WEIGHTS[character.charCodeAt(0)] = 4;

/** Lower-case pairs far more common in English and code than their letters suggest. */
const COMMON_PAIRS: ReadonlySet<string> = new Set(
  'th he in er an re on at en nd ti es or te of ed is it al ar st to nt ng se ha as ou io le ve co me de hi ri ro ic ne ea ra ce li ch ll be ma si om ur ca el ta la ns di fo ho pe ec pr no ct us ac ot il tr ly nc et ut ss so rs un lo wa ge ie wh ee wi em ad ol rt po we na ul ni ts mo ow pa im mi ai sh ir su id os iv ia am fi ci vi pl ig tu ev ld ry mp fe ex xp ty op ap ab ke ag'.split(
    ' ',
  ),
);

/**
 * The estimated frequency of the ASCII pair `previous`, `current` (lower is rarer). A pair ending
 * in a character the pass stops at anyway (`forced`: the one-character anchors, such as `:`)
 * costs only a comparison where that pair occurs.
 */
export function pairWeight(previous: number, current: number, forced: ReadonlySet<number>): number {
  const weight = (WEIGHTS[previous] as number) * (WEIGHTS[current] as number);
  if (forced.has(current)) return weight / 100;
  const pair = String.fromCharCode(previous, current);
  return COMMON_PAIRS.has(pair) ? weight * 3 : weight;
}
