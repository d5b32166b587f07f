import { tokenize } from './tokenize.js';

/** A document to index: fields with a weight each. */
export interface SearchDocument {
  readonly id: string;
  readonly fields: readonly { readonly text: string; readonly weight: number }[];
}

/** One hit of a search. */
export interface SearchHit {
  readonly id: string;
  readonly score: number;
}

/** A BM25F index over weighted fields. */
export interface Bm25Index {
  readonly size: number;
  search(query: string, limit: number): SearchHit[];
}

const K1 = 1.2;
const B = 0.75;

/**
 * Builds a BM25F index (k1 1.2, b 0.75): each field's term frequency is normalised by that
 * field's length against its average, weighted, and summed before saturation. A long
 * description then cannot drown a short name that says exactly what the tool does.
 */
export function createBm25Index(documents: readonly SearchDocument[]): Bm25Index {
  const fieldCount = Math.max(0, ...documents.map((d) => d.fields.length));
  const tokens: string[][][] = documents.map((d) => d.fields.map((f) => tokenize(f.text)));
  const averages = Array.from({ length: fieldCount }, (_, f) => {
    let total = 0;
    for (const doc of tokens) total += doc[f]?.length ?? 0;
    return total / Math.max(1, documents.length) || 1;
  });
  // per document: term -> normalised weighted frequency
  const frequencies: Map<string, number>[] = [];
  const postings = new Map<string, number[]>();
  for (const [index, document] of documents.entries()) {
    const tf = new Map<string, number>();
    for (const [f, field] of document.fields.entries()) {
      const words = tokens[index]?.[f] ?? [];
      const norm = 1 - B + (B * words.length) / (averages[f] as number);
      const counts = new Map<string, number>();
      for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
      for (const [word, count] of counts) tf.set(word, (tf.get(word) ?? 0) + (field.weight * count) / norm);
    }
    for (const term of tf.keys()) {
      const list = postings.get(term);
      if (list) list.push(index);
      else postings.set(term, [index]);
    }
    frequencies.push(tf);
  }
  const count = documents.length;
  return {
    size: count,
    search(query, limit) {
      const scores = new Map<number, number>();
      for (const term of new Set(tokenize(query))) {
        const list = postings.get(term);
        if (!list) continue;
        const idf = Math.log(1 + (count - list.length + 0.5) / (list.length + 0.5));
        for (const index of list) {
          const tf = frequencies[index]?.get(term) ?? 0;
          scores.set(index, (scores.get(index) ?? 0) + (idf * tf) / (K1 + tf));
        }
      }
      return [...scores.entries()]
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, limit)
        .map(([index, score]) => ({ id: (documents[index] as SearchDocument).id, score }));
    },
  };
}
