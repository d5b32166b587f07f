import type { ImportDiagnostic } from './diagnostics.js';

type Mutable = Record<string, unknown>;

/**
 * `BASE_URL_REQUIRED`: the document's servers are relative (`server`: `/`, `/api`) and it came
 * from no URL, so the tools `concerned` (local names) start their url with `relativeBase`
 * (`${SHOP_BASE_URL}`).
 */
export function baseUrlDiagnostic(
  relativeBase: string,
  server: string,
  concerned: readonly string[],
): ImportDiagnostic {
  const variable = relativeBase.slice(2, -1);
  return {
    code: 'BASE_URL_REQUIRED',
    variable,
    server,
    tools: concerned,
    message: `the document's servers are relative (${server}) and it was not loaded from a URL, so ${concerned.length === 1 ? 'its tool reads' : `its ${concerned.length} tools read`} the API's origin from \${${variable}}`,
    hint: `set ${variable} to the API's scheme and host, such as https://api.example.com (${server === '/' ? 'the paths go after it' : `${server} and the paths go after it`}), in the environment or the provider's env option; or import with baseUrl`,
  };
}

/** Why an import that made no tool has none, when the document says it: webhooks, no paths, filters. */
export function emptyImportDiagnostic(
  document: Mutable,
  operationCount: number,
  selectedCount: number,
): ImportDiagnostic | undefined {
  const paths = document.paths;
  const hasPaths =
    typeof paths === 'object' && paths !== null && Object.keys(paths).some((path) => path.startsWith('/'));
  const webhooks = document.webhooks;
  const webhookCount =
    typeof webhooks === 'object' && webhooks !== null && !Array.isArray(webhooks)
      ? Object.keys(webhooks).filter((name) => !name.startsWith('x-')).length
      : 0;
  if (!hasPaths && webhookCount > 0)
    return {
      code: 'WEBHOOKS_ONLY',
      message: `the document describes ${webhookCount} webhook${webhookCount === 1 ? '' : 's'} and no paths: webhooks are requests the API sends to you, not operations a client can call, so there is nothing to import`,
      hint: "import the API's document that has paths (the operations you call), or leave this one out",
    };
  if (!hasPaths)
    return {
      code: 'NO_PATHS',
      message: 'the document has no paths, so it describes no operation a client can call',
      hint: "import the API's full document (one with paths), or leave this one out",
    };
  if (operationCount > 0 && selectedCount === 0)
    return {
      code: 'NO_OPERATION_MATCHED',
      message: `none of the document's ${operationCount} operation${operationCount === 1 ? '' : 's'} passes include, exclude and includeDeprecated`,
      hint: `check the filters against the document's tags (${documentTags(document)}), paths and operationIds`,
    };
  return undefined;
}

/** The tags the document's operations use, at most 20 of them. */
function documentTags(document: Mutable): string {
  const tags = new Set<string>();
  for (const item of Object.values((document.paths ?? {}) as Mutable)) {
    if (typeof item !== 'object' || item === null) continue;
    for (const operation of Object.values(item as Mutable)) {
      const list = (operation as { tags?: unknown } | null)?.tags;
      if (Array.isArray(list)) for (const tag of list) if (typeof tag === 'string') tags.add(tag);
      if (tags.size > 20) break;
    }
  }
  const shown = [...tags].slice(0, 20);
  return shown.length === 0 ? 'it uses none' : shown.map((tag) => JSON.stringify(tag)).join(', ');
}
