/**
 * REST tools with a provider-wide `headers` entry added to each (`authorization` for every tool
 * of an API); a header a tool sets itself, in any letter case, is the tool's.
 */
export function withSharedHeaders(
  tools: Readonly<Record<string, unknown>>,
  headers: Readonly<Record<string, string>> | undefined,
): Record<string, unknown> {
  if (!headers || Object.keys(headers).length === 0) return { ...tools };
  const out: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools)) {
    if (typeof tool !== 'object' || tool === null) {
      out[name] = tool; // the provider says what is wrong with it
      continue;
    }
    const own = (tool as { headers?: unknown }).headers;
    const ownHeaders = typeof own === 'object' && own !== null ? (own as Record<string, unknown>) : {};
    const taken = new Set(Object.keys(ownHeaders).map((header) => header.toLowerCase()));
    const shared = Object.entries(headers).filter(([header]) => !taken.has(header.toLowerCase()));
    out[name] = { ...tool, headers: { ...Object.fromEntries(shared), ...ownHeaders } };
  }
  return out;
}
