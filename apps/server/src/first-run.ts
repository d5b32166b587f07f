import type { RunningServer } from './server.js';

/** What the server prints when it starts: the URL, and on first run the admin key and how to use it. */
export function startBanner(server: RunningServer): string {
  const lines = [`toolplane server listening on ${server.url} (${server.database} storage)`];
  if (server.firstAdminKey) {
    const key = server.firstAdminKey;
    lines.push(
      '',
      'First run: an admin key was created for tenant "default". It is shown this once; it is stored only hashed.',
      '',
      `  ${key}`,
      '',
      'Try it:',
      `  curl -s -H 'Authorization: Bearer ${key}' ${server.url}/v1/tools`,
      '',
      'MCP client entry (Claude Desktop, Cursor; use an agent key from POST /v1/keys in production):',
      JSON.stringify(
        {
          mcpServers: {
            toolplane: {
              type: 'http',
              url: `${server.url}/mcp`,
              headers: { Authorization: `Bearer ${key}` },
            },
          },
        },
        null,
        2,
      )
        .split('\n')
        .map((line) => `  ${line}`)
        .join('\n'),
    );
  }
  return `${lines.join('\n')}\n`;
}
