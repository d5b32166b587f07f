/**
 * Codes of {@link ImportDiagnostic}: what an import needs from the operator, or why it has no
 * tools. Codes never change meaning; new ones may be added.
 */
export type ImportDiagnosticCode =
  /** The document's servers are relative and it came from no URL: tools read their origin from `variable`. */
  | 'BASE_URL_REQUIRED'
  /** A document's OAuth2 tokenUrl is on an origin not confirmed as the API's: calls are refused before the secret is sent. */
  | 'TOKEN_ORIGIN_NOT_ALLOWED'
  /** A security scheme cannot be sent (an API key header name that is no HTTP header name): its operations go without it. */
  | 'SECURITY_SCHEME_SKIPPED'
  /** The document describes webhooks only: requests the API sends, not operations a client calls. */
  | 'WEBHOOKS_ONLY'
  /** The document has no paths at all. */
  | 'NO_PATHS'
  /** The document has operations, but none passes `include`, `exclude` and `includeDeprecated`. */
  | 'NO_OPERATION_MATCHED';

/**
 * Something an import reports for the operator to act on, with a stable `code`. Its `message`
 * and `hint` are also one line of `warnings`, so a program that only prints warnings says it too.
 *
 * @example
 * const { diagnostics } = await importOpenApi('./api.yaml', { namespace: 'shop' });
 * const base = diagnostics.find((item) => item.code === 'BASE_URL_REQUIRED');
 * if (base) console.log(`set ${base.variable}: ${base.hint}`);
 */
export interface ImportDiagnostic {
  readonly code: ImportDiagnosticCode;
  /** What happened. */
  readonly message: string;
  /** What to do about it. */
  readonly hint: string;
  /** `BASE_URL_REQUIRED`: the environment variable the tools' urls start with (without `${}`). */
  readonly variable?: string;
  /** `BASE_URL_REQUIRED`: the document's relative server (`/api`). */
  readonly server?: string;
  /** `TOKEN_ORIGIN_NOT_ALLOWED`, `SECURITY_SCHEME_SKIPPED`: the security scheme's name. */
  readonly scheme?: string;
  /** `TOKEN_ORIGIN_NOT_ALLOWED`: the origin of the document's tokenUrl. */
  readonly origin?: string;
  /** The imported tools concerned (local names), where there are some. */
  readonly tools?: readonly string[];
}

/** The warning line of a diagnostic. */
export function diagnosticWarning(diagnostic: ImportDiagnostic): string {
  return `${diagnostic.message}; ${diagnostic.hint}`;
}
