import type { ContentBlock, ToolResult } from '@toolplane/core';
import { writeLine } from '../context.js';
import { createStyle } from './style.js';
import { terminalJson, terminalLine, terminalText } from './terminal-text.js';

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type} ${block.mimeType}, ${Math.round((block.data.length * 3) / 4)} bytes]`;
    case 'resource':
      return block.resource.text ?? `[resource ${block.resource.uri}]`;
    case 'resource_link':
      return `[resource link ${block.uri}]`;
    default:
      return JSON.stringify(block);
  }
}

/**
 * Prints a result for people: content on stdout, error and call metadata on stderr. What the
 * tool returned is made inert for a terminal first ({@link terminalText}): its text may come from
 * anywhere (a web page, a file, a server).
 */
export function printResult(
  result: ToolResult,
  streams: { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream },
): void {
  const style = createStyle(streams.stderr);
  for (const block of result.content ?? []) writeLine(streams.stdout, terminalText(blockText(block)));
  if (result.ok && result.structured !== undefined) {
    writeLine(streams.stderr, style.dim('structured:'));
    writeLine(streams.stdout, terminalJson(JSON.stringify(result.structured, null, 2)));
  }
  if (!result.ok) {
    writeLine(
      streams.stderr,
      `${style.red(`error ${terminalLine(result.error.code)}:`)} ${terminalText(result.error.message)}`,
    );
    // the sandbox could not run the command: its own code says what to fix
    const sandboxCode = result.error.details?.['sandboxCode'];
    if (typeof sandboxCode === 'string')
      writeLine(
        streams.stderr,
        `${style.dim('hint:')} ${terminalLine(sandboxCode)}: run \`toolplane doctor\` to check the sandbox, or set sandbox.fallback: host to run such commands on the host`,
      );
  }
  const meta = result.meta;
  if (meta) {
    const parts = [
      result.ok ? style.green('ok') : style.red('failed'),
      terminalLine(meta.tool),
      `${Math.round(meta.latencyMs)} ms`,
      `${meta.bytesOut} bytes out`,
    ];
    if (meta.cached) parts.push('cached');
    if (meta.attempts > 1) parts.push(`${meta.attempts} attempts`);
    if (meta.truncated) parts.push(`truncated (handle ${terminalLine(meta.truncated.handle)})`);
    writeLine(streams.stderr, style.dim(parts.join(' · ')));
  }
}
