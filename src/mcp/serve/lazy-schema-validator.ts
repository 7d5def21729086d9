/**
 * `lazySchemaValidator`: the JSON Schema validator of a session's MCP server, built on first use.
 * The SDK's `Server` builds its own Ajv instance (with its rule tables) for every session, about
 * 25 KiB of heap each, to check a client's answer to an elicitation the server itself sends; a
 * gateway session relays elicitations rather than sending its own, so most sessions never use
 * it. One Ajv per session that does (not one shared by all) keeps what it compiles with the
 * session, freed when the session closes.
 */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

/** A validator that creates the SDK's Ajv validator the first time a schema is compiled. */
export function lazySchemaValidator(): jsonSchemaValidator {
  let validator: AjvJsonSchemaValidator | undefined;
  return {
    getValidator: (schema) => {
      validator ??= new AjvJsonSchemaValidator();
      return validator.getValidator(schema);
    },
  };
}
