// Bundles the `toolplane` binary (dist/bin.js) with esbuild, after `tsc` has written dist/ (the
// library entry dist/index.js and the declarations stay tsc's). Node 20 resolves and compiles
// every ES module separately, and a command used to load about 400 of them: one bundle with
// code splitting loads a handful of files, and the parts a command does not need (the gateway,
// the MCP SDK, undici, sandboxes) stay in chunks that the commands' dynamic imports load.
import { readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');

/**
 * Left to Node at run time, resolved from this package (each is one of its dependencies):
 * modules that find files next to themselves (a WebAssembly grammar, a module a worker
 * thread loads by path), optional native add-ons, and optional peers of the adapters.
 */
const EXTERNAL = [
  '@opentelemetry/api',
  'jsonpath-plus',
  'tree-sitter-bash',
  'web-tree-sitter',
  'dockerode',
  'bufferutil',
  'utf-8-validate',
  '@anthropic-ai/sdk',
  '@langchain/core',
  '@langchain/core/*',
  'ai',
  'openai',
  '@modelcontextprotocol/client',
];

const REQUIRE_SHIM = [
  "import { createRequire as __toolplaneCreateRequire } from 'node:module';",
  'let __toolplaneRequire;',
  'const __toolplaneLoad = () => (__toolplaneRequire ??= __toolplaneCreateRequire(import.meta.url));',
  'const require = Object.assign((id) => __toolplaneLoad()(id), {',
  '  resolve: (id, options) => __toolplaneLoad().resolve(id, options),',
  '});',
].join('\n');

/**
 * zod exports every one of its 63 locales (`z.locales`, 370 KB of the 760 KB it bundles to), which
 * toolplane never uses: its messages are the English default, loaded by zod itself from
 * `locales/en.js`. The namespace keeps that one, so a command compiles the rest never.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-locales' }
        : undefined,
    );
    plugin.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
    }));
  },
};

// chunks of an earlier build: their names change with their content
for (const name of await readdir(dist)) {
  if (/^chunk-[A-Z0-9]+\.js$/.test(name)) await rm(join(dist, name));
}

await build({
  entryPoints: { bin: join(root, 'src', 'bin.ts') },
  outdir: dist,
  // flat, next to bin.js: code that reads ../package.json from its own URL finds it from any chunk
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  external: EXTERNAL,
  plugins: [zodEnglishOnly],
  // the ES module build where a package ships one: jsonc-parser's CommonJS build is UMD, whose
  // require() calls a bundler cannot follow
  mainFields: ['module', 'main'],
  // CommonJS dependencies (ajv, commander) call require() for Node's own modules. Each chunk
  // makes its require on first use: creating one costs, and most chunks never call it.
  banner: { js: REQUIRE_SHIM },
  legalComments: 'none',
  logLevel: 'warning',
});
