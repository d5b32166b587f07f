/**
 * Sets `key` in `map` as its most recently used entry (a Map iterates in insertion order, so
 * its first key is the least recently used), dropping that first entry when a new key would
 * pass `max`.
 */
export function setMostRecent<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  if (!map.delete(key) && map.size >= max) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
