import { readlink } from 'node:fs/promises';
import { basename, dirname, relative, resolve } from 'node:path';
import { ToolError, sanitizeToolName } from '@toolplane/core';
import { type CommandContext, writeJson, writeLine } from '../context.js';
import { CliError, EXIT_CODES, usageError } from '../output/cli-error.js';
import { createStyle } from '../output/style.js';
import { terminalLine } from '../output/terminal-text.js';
import { variableNames } from '../config/provider-variables.js';
import { cliDiagnosticLine, emptyImportDiagnostic, libraryWarning } from './openapi-diagnostics.js';

function defaultNamespace(source: string): string {
  const last = /^https?:\/\//.test(source)
    ? (new URL(source).pathname.split('/').pop() ?? '')
    : basename(source);
  const stem = last
    .replace(/\.(json|ya?ml)$/i, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return sanitizeToolName(stem.toLowerCase() || 'api').slice(0, 32);
}

/** `--header 'Authorization: Bearer ${TOKEN}'` as a headers object; undefined when none is given. */
function parseHeaders(values: readonly string[]): Record<string, string> | undefined {
  if (values.length === 0) return undefined;
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(':');
    const name = colon === -1 ? '' : value.slice(0, colon).trim();
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      throw usageError(
        `--header ${JSON.stringify(value)} is not "name: value"`,
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the ${VAR} syntax of a header value, shown to the user
        "write it as --header 'Authorization: Bearer ${GITHUB_TOKEN}' (quote it so the shell leaves ${...} alone)",
      );
    headers[name.toLowerCase()] = value.slice(colon + 1).trim();
  }
  return headers;
}

/** Symbolic links followed at most, as the kernel does before it says ELOOP. */
const MAX_LINK_HOPS = 40;

/**
 * The path `--out` names after its symbolic links: the file is written there, so a link (a
 * managed dotfile, say) keeps pointing at the new file instead of being replaced by it. A link
 * whose target does not exist yet is followed too; a link that loops is refused.
 */
async function followLinks(path: string, shown: string): Promise<string> {
  let current = path;
  for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
    let target: string;
    try {
      target = await readlink(current);
    } catch {
      return current; // not a link (or nothing there yet): the path itself
    }
    current = resolve(dirname(current), target);
  }
  throw usageError(
    `cannot write ${shown}: it is a symbolic link that loops`,
    'give --out a file path in an existing, writable directory',
  );
}

/** `toolplane openapi import <source>`: an OpenAPI document as a REST tool config file. */
export async function openapiImport(
  context: CommandContext,
  source: string,
  options: {
    namespace?: string;
    tag?: string[];
    baseUrl?: string;
    allowTokenOrigin?: string[];
    header?: string[];
    out?: string;
    json?: boolean;
  },
): Promise<number> {
  const namespace = options.namespace ?? defaultNamespace(source);
  if (!/^[A-Za-z0-9_-]+$/.test(namespace))
    throw usageError(`--namespace ${namespace} is invalid`, 'use only letters, digits, "_" and "-"');
  if (options.out !== undefined && !/\.(json|ya?ml)$/i.test(options.out))
    throw usageError(
      `--out ${options.out} must end in .json, .yaml or .yml`,
      'the extension picks the format',
    );
  const headers = parseHeaders(options.header ?? []);
  const { importOpenApi, writeToolConfig } = await import('@toolplane/rest-openapi');
  const location = /^https?:\/\//.test(source) ? source : resolve(context.cwd, source);
  let imported: Awaited<ReturnType<typeof importOpenApi>>;
  try {
    imported = await importOpenApi(location, {
      namespace,
      ...(options.tag?.length ? { include: { tags: options.tag } } : {}),
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      ...(options.allowTokenOrigin?.length ? { allowedTokenOrigins: options.allowTokenOrigin } : {}),
      ...(headers ? { toolDefaults: { headers } } : {}),
    });
  } catch (error) {
    if (ToolError.isInstance(error))
      throw new CliError(`cannot import ${source}: ${error.message}`, {
        code: error.code,
        hint: error.message.includes('allowedTokenOrigins')
          ? 'if you trust that token endpoint with your client secret, pass --allow-token-origin <origin> (in a config: "allowedTokenOrigins"); or give the scheme\'s tokenUrl in "credentials" of an "openapi" config entry'
          : 'give an OpenAPI 3.x or Swagger 2.0 document (JSON or YAML), as a file path or an http(s) URL',
      });
    throw error;
  }
  const names = Object.keys(imported.tools);
  const style = createStyle(context.stderr);
  const empty = names.length === 0 ? emptyImportDiagnostic(imported.diagnostics) : undefined;
  if (empty)
    throw new CliError(`no operation of ${source} could be imported: ${empty.message}`, {
      code: 'CONFIG_INVALID',
      exitCode: EXIT_CODES.usage,
      hint: `${empty.hint}${options.tag?.length ? ' (or check --tag)' : ''}`,
    });
  // the library also words each diagnostic as a warning; the CLI says it with its own flags
  const diagnosticWarnings = new Set(imported.diagnostics.map(libraryWarning));
  const warnings = [
    ...imported.warnings.filter((warning) => !diagnosticWarnings.has(warning)),
    ...imported.diagnostics.map(cliDiagnosticLine),
  ];
  if (names.length === 0 && imported.warnings.length > 0) {
    // every operation that matched was skipped: the warnings say why
    if (!options.json)
      for (const warning of imported.warnings)
        writeLine(context.stderr, `${style.yellow('warning:')} ${terminalLine(warning)}`);
    const [first] = imported.warnings;
    const more = imported.warnings.length - 1;
    throw new CliError(
      `no operation of ${source} could be imported: ${first}${more > 0 ? ` (and ${more} more warning(s))` : ''}`,
      {
        code: 'CONFIG_INVALID',
        exitCode: EXIT_CODES.usage,
        hint: `each warning says why an operation was left out and what to change in the document${options.tag?.length ? ' (or check --tag)' : ''}`,
      },
    );
  }
  if (names.length === 0)
    throw new CliError(
      `no operations of ${source} matched${options.tag?.length ? ` the tags ${options.tag.join(', ')}` : ''}`,
      {
        exitCode: EXIT_CODES.usage,
        hint: 'check --tag against the tags the document uses, or leave it out',
      },
    );
  const out = options.out === undefined ? undefined : resolve(context.cwd, options.out);
  if (out && options.out !== undefined)
    await writeToolConfig(await followLinks(out, options.out), imported.tools, {
      // the name given picks the format, also when a link points at another extension
      format: /\.ya?ml$/i.test(options.out) ? 'yaml' : 'json',
    }).catch((error: unknown) => {
      // a file-system failure (the importer's ToolError carries it as its cause) is about --out
      const cause = ToolError.isInstance(error) ? error.cause : error;
      const code = (cause as NodeJS.ErrnoException | undefined)?.code;
      if (typeof code !== 'string') throw error;
      throw usageError(
        `cannot write ${options.out}: ${code === 'ENOENT' ? 'its directory does not exist' : code === 'EISDIR' ? 'it is a directory' : (cause as Error).message}`,
        'give --out a file path in an existing, writable directory',
      );
    });
  const shownOut = out ? relative(context.cwd, out) || out : undefined;
  // what the written config reads at each call: a person sets these before calling a tool
  const variables = variableNames(imported.tools);
  if (options.json) {
    writeJson(context.stdout, {
      namespace,
      info: imported.info,
      tools: names,
      variables,
      warnings,
      diagnostics: imported.diagnostics,
      ...(shownOut ? { out: shownOut } : { config: { tools: imported.tools } }),
    });
    return EXIT_CODES.ok;
  }
  if (!out) writeJson(context.stdout, { tools: imported.tools });
  // the document's own text (title, version, paths in warnings), made inert for the terminal
  const title = terminalLine([imported.info.title, imported.info.version].filter(Boolean).join(' '));
  writeLine(
    context.stderr,
    `${style.green('imported')} ${names.length} tool(s) from ${title || source} (OpenAPI ${terminalLine(imported.info.specification)})${shownOut ? ` into ${shownOut}` : ''}`,
  );
  for (const name of names.slice(0, 20)) writeLine(context.stderr, `  ${namespace}__${name}`);
  if (names.length > 20) writeLine(context.stderr, `  … and ${names.length - 20} more`);
  for (const warning of warnings)
    writeLine(context.stderr, `${style.yellow('warning:')} ${terminalLine(warning)}`);
  if (variables.length > 0)
    writeLine(
      context.stderr,
      `the tool config reads these environment variables at each call: ${terminalLine(variables.join(', '))} (set them where toolplane runs; \`toolplane config validate\` warns about unset ones)`,
    );
  if (shownOut)
    writeLine(
      context.stderr,
      `add to toolplane.config.json: "rest": [{ "namespace": "${namespace}", "file": "${shownOut}" }]`,
    );
  return EXIT_CODES.ok;
}
