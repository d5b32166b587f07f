import type { ImportDiagnostic } from '@toolplane/rest-openapi';

/** Diagnostics that explain why an import produced no tools. */
const EMPTY_IMPORT_CODES: ReadonlySet<string> = new Set([
  'NO_OPERATION_MATCHED',
  'NO_PATHS',
  'WEBHOOKS_ONLY',
]);

/** The diagnostic that says why an import has no tools, if one does. */
export function emptyImportDiagnostic(
  diagnostics: readonly ImportDiagnostic[],
): ImportDiagnostic | undefined {
  return diagnostics.find((diagnostic) => EMPTY_IMPORT_CODES.has(diagnostic.code));
}

/** The line the library puts in `warnings` for a diagnostic (so the CLI prints its own instead). */
export function libraryWarning(diagnostic: ImportDiagnostic): string {
  return `${diagnostic.message}; ${diagnostic.hint}`;
}

/**
 * A diagnostic said in the CLI's terms: the environment variable to set or the flag to pass,
 * instead of the library option the library's hint names.
 */
export function cliDiagnosticLine(diagnostic: ImportDiagnostic): string {
  switch (diagnostic.code) {
    case 'BASE_URL_REQUIRED':
      return `the document's server ${diagnostic.server ?? ''} is relative: set ${diagnostic.variable}=https://… (the API's scheme and host) in the environment before calling these tools, or import again with --base-url https://…`;
    case 'TOKEN_ORIGIN_NOT_ALLOWED':
      return `${diagnostic.message}; if you trust that token endpoint with your client secret, import again with --allow-token-origin ${diagnostic.origin} (in a config entry: "allowedTokenOrigins": ["${diagnostic.origin}"])`;
    default:
      return libraryWarning(diagnostic);
  }
}
