const STOP_WORDS = new Set(
  'a an and are as at be by for from i in into is it its me my of on or some that the this to with you your via'.split(
    ' ',
  ),
);

// Tools are named for CRUD verbs (create, get, update, delete, list, search); people ask with
// other words. Each group meets on its first word, in queries and in tool text alike.
const VERB_GROUPS = [
  ['create', 'add', 'open', 'new', 'make', 'publish', 'post', 'submit', 'start'],
  ['get', 'read', 'fetch', 'show', 'view', 'retrieve', 'download'],
  ['update', 'set', 'change', 'edit', 'modify', 'replace'],
  ['delete', 'remove', 'drop', 'erase', 'destroy'],
  ['list', 'enumerate'],
  ['search', 'find', 'lookup', 'query'],
];
const CANONICAL = new Map(VERB_GROUPS.flatMap((group) => group.map((word) => [word, group[0] as string])));

/** A crude stem: enough to meet `issues` with `issue` and `listing` with `list`. */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('es') && /(ses|xes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Words of a text for search: camelCase, snake_case and kebab-case split, lowercased, stemmed, CRUD
 * verbs folded into one word each (`add`, `open`, `new` -> `create`). */
export function tokenize(text: string): string[] {
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  const out: string[] = [];
  for (const raw of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (raw.length === 0 || STOP_WORDS.has(raw)) continue;
    const word = stem(raw);
    out.push(CANONICAL.get(word) ?? word);
  }
  return out;
}
