import type { RestBodyBinding, RestFileField } from '../config.js';
import { setOwn } from '../records.js';
import type { NormalizedBody } from './operation-model.js';

/** Body fields that name the file of a multipart upload, as many APIs call them. */
const FILENAME_FIELDS: readonly string[] = ['filename', 'fileName', 'file_name'];

/** Media types a part header can carry (visible ASCII, with parameters). */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\/[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:\s*;[\x20-\x7e]*)?$/;

type Schema = Readonly<Record<string, unknown>>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a (converted) property schema is a file: binary or base64 content, or a list of it. */
function fileSchema(schema: Schema): Schema | undefined {
  if (schema.format === 'binary' || schema.format === 'base64') return schema;
  if (typeof schema.contentMediaType === 'string' || typeof schema.contentEncoding === 'string')
    return schema;
  if (isSchema(schema.items)) return fileSchema(schema.items);
  return undefined;
}

/**
 * The file fields of a multipart body's schema: each sent as a part with a filename, taken from
 * a `filename` (`fileName`, `file_name`) field of the body when the schema has one and exactly one
 * file field that is no list (else each file is named after its field), and with the
 * `contentMediaType` as the part's type when the schema gives one.
 */
export function fileFields(bodySchema: unknown): Record<string, RestFileField> | undefined {
  if (!isSchema(bodySchema) || !isSchema(bodySchema.properties)) return undefined;
  const properties = bodySchema.properties;
  const found = Object.entries(properties).flatMap(([field, property]) => {
    const file = isSchema(property) ? fileSchema(property) : undefined;
    return file ? [[field, file] as const] : [];
  });
  // one filename field names one file: with several, which it names is a guess, so none is taken
  const [only] = found;
  const single = found.length === 1 && only !== undefined && only[1] === properties[only[0]];
  const filenameField = single ? FILENAME_FIELDS.find((name) => Object.hasOwn(properties, name)) : undefined;
  const files: Record<string, RestFileField> = {};
  for (const [field, file] of found) {
    if (field === filenameField) continue;
    const type = file.contentMediaType;
    setOwn(files, field, {
      ...(filenameField !== undefined ? { filenameField } : {}),
      ...(typeof type === 'string' && MEDIA_TYPE.test(type) ? { contentType: type } : {}),
    });
  }
  return Object.keys(files).length > 0 ? files : undefined;
}

/** The body binding of an imported operation: its argument, content type, file fields (multipart) and joined lists (Swagger 2.0 form fields). */
export function bodyBinding(
  body: NormalizedBody,
  argument: string,
  parametersSchema: { readonly properties?: unknown },
): RestBodyBinding {
  const { contentType, collectionFormats } = body;
  const properties = isSchema(parametersSchema.properties) ? parametersSchema.properties : {};
  const files = contentType.toLowerCase().startsWith('multipart/form-data')
    ? fileFields(properties[argument])
    : undefined;
  return {
    argument,
    contentType,
    ...(files ? { files } : {}),
    ...(collectionFormats ? { collectionFormats } : {}),
  };
}
