import { describe, expect, it } from 'vitest';
import { createBm25Index, createToolIndex, tokenize } from '../../src/index.js';

describe('BM25 tool index', () => {
  it('splits camelCase, snake_case and kebab-case and stems plurals', () => {
    expect(tokenize('listIssues for_the repo-labels')).toEqual(['list', 'issue', 'repo', 'label']);
  });

  it('folds the verbs people use into the CRUD verbs tools are named for', () => {
    expect(tokenize('open a new ticket')).toEqual(['create', 'create', 'ticket']);
    expect(tokenize('read, remove, edit, find')).toEqual(['get', 'delete', 'update', 'search']);
  });

  it('ranks a name match above a description match, and rarer words above common ones', () => {
    const index = createToolIndex([
      { name: 'repos__list', description: 'Lists repositories. Mentions issues once.', inputSchema: {} },
      {
        name: 'issues__create',
        description: 'Creates an issue in a repository.',
        inputSchema: { properties: { title: {} } },
      },
      { name: 'issues__list', description: 'Lists issues of a repository.', inputSchema: {} },
    ]);
    expect(index.search('create issue', 3).map((h) => h.id)).toEqual([
      'issues__create',
      'issues__list',
      'repos__list',
    ]);
    expect(index.search('title', 3).map((h) => h.id)).toEqual(['issues__create']);
  });

  it('answers nothing for words no tool has, and breaks ties by insertion order', () => {
    const index = createBm25Index([
      { id: 'a', fields: [{ text: 'same words', weight: 1 }] },
      { id: 'b', fields: [{ text: 'same words', weight: 1 }] },
    ]);
    expect(index.search('zebra', 5)).toEqual([]);
    expect(index.search('same', 5).map((h) => h.id)).toEqual(['a', 'b']);
  });
});
