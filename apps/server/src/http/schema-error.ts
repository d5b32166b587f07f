import { ApiError } from './api-error.js';

/** The 400 of a request that does not fit its route's schema, naming each issue by its path. */
export function schemaError(
  issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[],
): ApiError {
  const text = issues
    .map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`)
    .join('; ');
  return new ApiError(400, 'INVALID_ARGUMENTS', 'schema', `the request does not fit the schema: ${text}`);
}
