import { expect, it } from 'vitest';
import { IndexedList } from '../../src/call/indexed-list.js';

it('adds, removes from anywhere, refuses strangers and keeps indexes true', () => {
  const list = new IndexedList<{ name: string; listIndex: number }>();
  const items = ['a', 'b', 'c', 'd'].map((name) => ({ name, listIndex: -1 }));
  for (const item of items) list.add(item);
  expect(list.delete(items[1] as never)).toBe(true);
  expect(list.delete(items[1] as never)).toBe(false);
  expect(list.delete({ name: 'stranger', listIndex: 0 })).toBe(false);
  expect(list.snapshot().map((item) => item.name)).toEqual(['a', 'd', 'c']);
  for (const [index, item] of list.snapshot().entries()) expect(item.listIndex).toBe(index);
  expect(list.find((item) => item.name === 'c')).toBe(items[2]);
  list.clear();
  expect(list.size).toBe(0);
  expect(items.every((item) => item.listIndex === -1)).toBe(true);
});
