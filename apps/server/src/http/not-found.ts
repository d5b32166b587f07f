import type { Context } from 'hono';
import { ApiError } from './api-error.js';

function patternOf(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((part) =>
      part.startsWith(':') ? '[^/]+' : part === '*' ? '.*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${escaped}$`);
}

/**
 * 405 with the allowed methods when the path exists under another method, 404 otherwise;
 * both as JSON errors.
 */
export function notFoundHandler(routes: () => readonly { method: string; path: string }[]) {
  return (c: Context): Response => {
    const path = c.req.path;
    const allowed = [
      ...new Set(
        routes()
          .filter((route) => route.method !== 'ALL' && patternOf(route.path).test(path))
          .map((route) => route.method),
      ),
    ];
    const error =
      allowed.length > 0
        ? new ApiError(
            405,
            'INVALID_ARGUMENTS',
            'method_not_allowed',
            `${c.req.method} is not served on ${path}: use ${allowed.join(', ')}`,
          )
        : new ApiError(
            404,
            'INVALID_ARGUMENTS',
            'route_not_found',
            `no route ${c.req.method} ${path}: GET /openapi.json lists every route`,
          );
    if (allowed.length > 0) c.header('allow', allowed.join(', '));
    return c.json(error.toJSON(), error.status as 404);
  };
}
