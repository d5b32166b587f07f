import type { RecordedRequest } from './loopback.js';

/** One part of a multipart body: a file part (it had a filename) keeps its name, type and exact bytes. */
export interface Part {
  readonly name: string;
  readonly file?: { readonly filename: string; readonly type: string };
  readonly text: string;
  readonly bytes?: Buffer;
}

/** Parses a recorded multipart body's exact bytes with undici's own multipart parser: a part with a filename is a File. */
export async function multipartParts(request: RecordedRequest | undefined): Promise<Part[]> {
  const contentType = String(request?.headers['content-type']);
  const form = await new Response(request?.bytes, { headers: { 'content-type': contentType } }).formData();
  const out: Part[] = [];
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') out.push({ name, text: value });
    else {
      const bytes = Buffer.from(await value.arrayBuffer());
      out.push({
        name,
        file: { filename: value.name, type: value.type },
        text: bytes.toString('utf8'),
        bytes,
      });
    }
  }
  return out;
}
