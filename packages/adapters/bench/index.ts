// Every benchmark of @toolplane/adapters, one after the other.
await import('./compile.bench.js');
await import('./search-recall.bench.js');
await import('./adapter-overhead.bench.js');
