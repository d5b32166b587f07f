/** Where a package's example comes from. */
export type ExampleSource =
  /** The first TypeScript block of the package's README. */
  | { readme: true }
  /** Files of the repository (paths from its root), copied side by side; the first is run. */
  | { files: string[] };

/** The example that proves a package works once installed from its tarball. */
export interface ExampleSpec {
  source: ExampleSource;
  /** `true`: type-checked, then run with node. A string: only type-checked, for this reason. */
  run: true | string;
}

/**
 * One example per public library. The CLI is checked through its bin instead. A package added
 * to the workspace without an entry here fails the check, so every published package has one.
 */
export const examples: Record<string, ExampleSpec> = {
  '@toolplane/adapters': {
    source: { files: ['examples/adapter-openai/src/agent.ts', 'examples/adapter-openai/src/tools.ts'] },
    run: 'needs a model endpoint (the README points to this runnable version)',
  },
  '@toolplane/address-guard': { source: { readme: true }, run: true },
  '@toolplane/builtin-fs-shell': { source: { readme: true }, run: true },
  '@toolplane/core': { source: { readme: true }, run: true },
  '@toolplane/mcp-provider': {
    source: { readme: true },
    run: 'starts an MCP server fetched by npx and connects to a remote server',
  },
  '@toolplane/orchestrator': { source: { readme: true }, run: true },
  '@toolplane/policy': { source: { readme: true }, run: true },
  '@toolplane/rest-openapi': {
    // The README's first block calls api.example.com; this is its offline twin with a local API.
    source: { files: ['packages/rest-openapi/examples/hand-written.ts'] },
    run: true,
  },
  '@toolplane/sandbox': { source: { readme: true }, run: 'needs a Docker engine' },
  '@toolplane/scrubber': { source: { readme: true }, run: true },
  '@toolplane/subagents': { source: { readme: true }, run: true },
};

/** The packages checked through their bin rather than an example. */
export const binPackages = new Set(['@toolplane/cli']);
