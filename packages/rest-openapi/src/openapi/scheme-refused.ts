import { ToolError } from '@toolplane/core';

/**
 * A security scheme of the document that would send the operator's credentials somewhere the
 * operator has not chosen (a token URL on another origin, another scheme's variable). It stops
 * the whole import (`CONFIG_INVALID`): a scheme is the document's, shared by its operations, so
 * skipping them one by one would only hide it.
 */
export class SchemeRefused extends ToolError {
  constructor(message: string) {
    super('CONFIG_INVALID', message);
  }
}

/**
 * A server of a document from a public origin that is a local or private address (a cloud
 * metadata endpoint, the operator's own network): the model's calls and the operator's
 * credentials would go there. It stops the whole import (`CONFIG_INVALID`), like a scheme.
 */
export class ServerRefused extends SchemeRefused {}
