import { describe, expect, it } from 'vitest';
import { createScrubber } from '../../src/scrubber.js';
import { ALPHABETS, createFakeSource } from '../../src/testing/fake.js';

// An API hands back a token to send again for the next page of a listing (Google's
// `nextPageToken`, AWS's `NextToken`, Azure's `continuationToken`...); MCP names its progress
// notifications by a `progressToken`. They are positions, not credentials: redacted, an agent
// cannot fetch the rest of a listing. Keys that name credentials stay redacted beside them.

const fake = createFakeSource();
const scrubber = createScrubber();

describe('position tokens are left alone, credential tokens are not', () => {
  it('keeps pagination, progress and sync tokens in JSON, YAML, headers and env lines', () => {
    const position = fake.chars(ALPHABETS.base64, 48);
    for (const key of [
      'nextPageToken',
      'pageToken',
      'prevPageToken',
      'NextToken',
      'next_token',
      'NEXT_PAGE_TOKEN',
      'ContinuationToken',
      'NextContinuationToken',
      'PaginationToken',
      'progressToken',
      'nextSyncToken',
      'resumeToken',
      'IdempotencyToken',
      'nexttoken',
    ]) {
      for (const text of [
        `{"items":[],"${key}":"${position}"}`,
        `${key}: ${position}`,
        `${key}=${position}`,
      ]) {
        expect(scrubber.scrub(text).text, text).toBe(text);
      }
    }
  });

  it('still redacts tokens whose key names a credential, in the same answer', () => {
    const position = fake.chars(ALPHABETS.base64, 48);
    for (const key of [
      'access_token',
      'refreshToken',
      'id_token',
      'GITHUB_TOKEN',
      'csrfToken',
      'sessionToken',
      'authToken',
    ]) {
      const secret = fake.chars(ALPHABETS.alnum, 40);
      const text = `{"nextPageToken":"${position}","${key}":"${secret}"}`;
      const out = scrubber.scrub(text).text;
      expect(out, key).toContain(position);
      expect(out, key).not.toContain(secret);
    }
  });
});
