import type { JsonSchema } from '@toolplane/core';
import type { RestParameterBinding } from '../config.js';
import { setOwn } from '../records.js';
import type { NormalizedOperation } from './operation-model.js';
import { argumentNames } from './operation-names.js';
import type { SchemaConverter } from './schema.js';
import { trimText } from './text.js';

/** The arguments of one operation's tool: their schema, where each goes, and the body's name. */
export interface OperationArguments {
  readonly parametersSchema: JsonSchema;
  readonly bindings: Record<string, RestParameterBinding>;
  readonly bodyName: string;
}

/**
 * One argument per parameter (named by {@link argumentNames}) plus the body, each schema
 * converted to draft-07 with its trimmed description, recursive schemas under `definitions`,
 * and `additionalProperties: false` so a misspelt argument is reported.
 */
export function operationArguments(
  operation: NormalizedOperation,
  converter: SchemaConverter,
  maxDescriptionLength: number,
): OperationArguments {
  const { parameters: argNames, body: bodyName } = argumentNames(operation);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const bindings: Record<string, RestParameterBinding> = {};
  const needs = new Set<string>();
  for (const [position, parameter] of operation.parameters.entries()) {
    const argument = argNames[position] as string;
    const converted = converter.convert(parameter.schema);
    for (const need of converted.needs) needs.add(need);
    const description = parameter.description
      ? trimText(parameter.description, maxDescriptionLength)
      : undefined;
    setOwn(
      properties,
      argument,
      description || parameter.deprecated
        ? {
            ...converted.schema,
            ...(description ? { description } : {}),
            ...(parameter.deprecated ? { deprecated: true } : {}),
          }
        : converted.schema,
    );
    if (parameter.required) required.push(argument);
    const { name: wireName, ...rest } = parameter.binding;
    setOwn(bindings, argument, wireName === argument ? rest : parameter.binding);
  }
  if (operation.body) {
    const converted = converter.convert(operation.body.schema);
    for (const need of converted.needs) needs.add(need);
    const description = operation.body.description
      ? trimText(operation.body.description, maxDescriptionLength)
      : undefined;
    setOwn(properties, bodyName, description ? { ...converted.schema, description } : converted.schema);
    if (operation.body.required) required.push(bodyName);
  }
  const definitions = converter.definitionsFor(needs);
  const parametersSchema: JsonSchema = {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(definitions ? { definitions } : {}),
  };
  return { parametersSchema, bindings, bodyName };
}
