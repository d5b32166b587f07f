import type { JsonSchema } from '@toolplane/core';
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

/** What a file property's schema says: whether it is a list of files, and the parts' media type. */
interface FileSchema {
  readonly list: boolean;
  readonly contentType?: string;
  /** The field's text is the base64 of the file's bytes. */
  readonly base64: boolean;
}

/** Whether a schema says its text is base64 (`contentEncoding: base64`, OpenAPI's `format: byte`, or `format: base64`). */
const base64Schema = (schema: Schema): boolean =>
  schema.format === 'byte' ||
  schema.format === 'base64' ||
  (typeof schema.contentEncoding === 'string' && /^base64(?:url)?$/i.test(schema.contentEncoding));

/** How deep {@link fileSchema} looks through references, `allOf`/`anyOf`/`oneOf` and `items`. */
const MAX_FILE_SCHEMA_DEPTH = 64;

const mediaType = (schema: Schema): string | undefined =>
  typeof schema.contentMediaType === 'string' ? schema.contentMediaType : undefined;

/** The schema a `#/definitions/Name` reference of the tool's schema points to. */
function target(schema: Schema, definitions: Schema): Schema | undefined {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/definitions/')) return undefined;
  const name = ref.slice('#/definitions/'.length);
  const found = Object.hasOwn(definitions, name) ? definitions[name] : undefined;
  return isSchema(found) ? found : undefined;
}

const isNullSchema = (schema: unknown): boolean => isSchema(schema) && schema.type === 'null';

/**
 * Whether a (converted) property schema is a file: binary or base64 content, or a list of it,
 * also behind a `#/definitions/` reference (a recursive schema), in an `allOf` member, or in every
 * branch of an `anyOf`/`oneOf` but `null`.
 */
function fileSchema(schema: Schema, definitions: Schema, depth = 0): FileSchema | undefined {
  if (depth > MAX_FILE_SCHEMA_DEPTH) return undefined;
  const referred = target(schema, definitions);
  if (referred) return fileSchema(referred, definitions, depth + 1);
  const type = mediaType(schema);
  if (
    schema.format === 'binary' ||
    schema.format === 'byte' ||
    schema.format === 'base64' ||
    type !== undefined ||
    typeof schema.contentEncoding === 'string'
  )
    return { list: false, contentType: type, base64: base64Schema(schema) };
  if (isSchema(schema.items)) {
    const item = fileSchema(schema.items, definitions, depth + 1);
    return item && { ...item, list: true };
  }
  if (Array.isArray(schema.allOf)) {
    // every member holds: one saying binary makes a file, another may give its media type
    const members = schema.allOf.filter(isSchema).map((member) => fileSchema(member, definitions, depth + 1));
    const files = members.filter((member) => member !== undefined);
    const anyMember = schema.allOf.filter(isSchema).find((member) => mediaType(member) !== undefined);
    if (files.length > 0)
      return {
        list: files.some((file) => file.list),
        contentType:
          files.find((file) => file.contentType)?.contentType ?? (anyMember && mediaType(anyMember)),
        base64:
          files.some((file) => file.base64) ||
          schema.allOf.some((member) => isSchema(member) && base64Schema(member)),
      };
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const open = branches.filter((branch) => !isNullSchema(branch));
    const files = open.map((branch) =>
      isSchema(branch) ? fileSchema(branch, definitions, depth + 1) : undefined,
    );
    if (open.length === 0 || files.some((file) => file === undefined)) continue;
    const known = files as FileSchema[];
    // the media type when every branch gives the same one
    const types = new Set(known.map((file) => file.contentType));
    const [only] = types;
    return {
      list: known.some((file) => file.list),
      contentType: types.size === 1 ? only : undefined,
      // decoded only when every branch says base64 (a data: URL decodes in any file field)
      base64: known.every((file) => file.base64),
    };
  }
  return undefined;
}

/**
 * The file fields of a multipart body's schema: each sent as a part with a filename, taken from
 * a `filename` (`fileName`, `file_name`) field of the body when the schema has one and exactly one
 * file field that is no list (else each file is named after its field), and with the
 * `contentMediaType` as the part's type when the schema gives one. `definitions` is the tool
 * schema's section of recursive schemas, which the body or its properties may refer to.
 */
export function fileFields(
  bodySchema: unknown,
  definitions: unknown = {},
): Record<string, RestFileField> | undefined {
  const sections = isSchema(definitions) ? definitions : {};
  const body = isSchema(bodySchema) ? (target(bodySchema, sections) ?? bodySchema) : undefined;
  if (!body || !isSchema(body.properties)) return undefined;
  const properties = body.properties;
  const found = Object.entries(properties).flatMap(([field, property]) => {
    const file = isSchema(property) ? fileSchema(property, sections) : undefined;
    return file ? [[field, file] as const] : [];
  });
  // one filename field names one file: with several, which it names is a guess, so none is taken
  const [only] = found;
  const single = found.length === 1 && only !== undefined && !only[1].list;
  const filenameField = single ? FILENAME_FIELDS.find((name) => Object.hasOwn(properties, name)) : undefined;
  const files: Record<string, RestFileField> = {};
  for (const [field, file] of found) {
    if (field === filenameField) continue;
    const type = file.contentType;
    setOwn(files, field, {
      ...(filenameField !== undefined ? { filenameField } : {}),
      ...(type !== undefined && MEDIA_TYPE.test(type) ? { contentType: type } : {}),
      ...(file.base64 ? { encoding: 'base64' as const } : {}),
    });
  }
  return Object.keys(files).length > 0 ? files : undefined;
}

/** The body binding of an imported operation: its argument, content type, file fields (multipart) and joined lists (Swagger 2.0 form fields). */
export function bodyBinding(
  body: NormalizedBody,
  argument: string,
  parametersSchema: { readonly properties?: unknown; readonly definitions?: unknown },
): RestBodyBinding {
  const { contentType, collectionFormats } = body;
  const properties = isSchema(parametersSchema.properties) ? parametersSchema.properties : {};
  const files = contentType.toLowerCase().startsWith('multipart/form-data')
    ? fileFields(
        Object.hasOwn(properties, argument) ? properties[argument] : undefined,
        parametersSchema.definitions,
      )
    : undefined;
  return {
    argument,
    contentType,
    ...(files ? { files } : {}),
    ...(collectionFormats ? { collectionFormats } : {}),
  };
}

/**
 * The argument schema with a note on the body argument saying how its file fields take bytes
 * (a model can only write text): base64 for the fields declared so, a `data:` URL for any.
 */
export function describeFiles(
  parametersSchema: JsonSchema,
  argument: string,
  files: Readonly<Record<string, RestFileField>>,
): JsonSchema {
  const properties = isSchema(parametersSchema.properties) ? { ...parametersSchema.properties } : {};
  const body = Object.hasOwn(properties, argument) ? properties[argument] : undefined;
  if (!isSchema(body)) return parametersSchema;
  const names = (base64: boolean) =>
    Object.entries(files)
      .filter(([, file]) => (file.encoding === 'base64') === base64)
      .map(([field]) => JSON.stringify(field.slice(0, 100)))
      .slice(0, 20)
      .join(', ');
  const encoded = names(true);
  const plain = names(false);
  const note = [
    plain &&
      `File fields ${plain} take the file's text, or its bytes as a data: URL (data:image/png;base64,...).`,
    encoded && `File fields ${encoded} take the base64 of the file's bytes (or a data: URL).`,
  ]
    .filter(Boolean)
    .join(' ');
  const description = typeof body.description === 'string' ? `${body.description} ${note}` : note;
  setOwn(properties, argument, { ...body, description });
  return { ...parametersSchema, properties };
}
