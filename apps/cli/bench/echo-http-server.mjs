// The HTTP baseline of the gateway benchmark: the fixture's echo tool served directly over
// streamable HTTP (a session per client, answers as SSE streams, as `serve mcp --http` does).
// Prints `listening <url>` on stdout once it listens on 127.0.0.1 (a free port).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const sessions = new Map();

function echoServer() {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echoes a message.',
      inputSchema: { message: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
  );
  return server;
}

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const http = createServer(async (req, res) => {
  try {
    const id = req.headers['mcp-session-id'];
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    let transport = typeof id === 'string' ? sessions.get(id) : undefined;
    if (!transport) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
      });
      await echoServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  } catch (error) {
    if (!res.headersSent) res.writeHead(400).end(String(error));
  }
});
http.listen(0, '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${http.address().port}/mcp`);
});
process.on('SIGTERM', () => process.exit(0));
