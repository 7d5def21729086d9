/**
 * A gateway session builds no Ajv instance until a schema is compiled: the SDK's default built
 * one per session (about 25 KiB of heap each, most of an idle session's memory).
 */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { describe, expect, it } from "vitest";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import { createGatewaySession } from "./gateway-session.js";
import { lazySchemaValidator } from "./lazy-schema-validator.js";

describe("lazySchemaValidator", () => {
  it("is what a gateway session validates with, not an Ajv built up front", async () => {
    const sift = await createMCPToolSift({ servers: {} });
    const server = createGatewaySession("s1", { sift });
    const validator = (server as unknown as { _jsonSchemaValidator: unknown })._jsonSchemaValidator;
    expect(validator).not.toBeInstanceOf(AjvJsonSchemaValidator);
    await sift.close();
  });

  it("validates as the SDK's Ajv validator does once used", () => {
    const check = lazySchemaValidator().getValidator<{ name: string }>({
      type: "object",
      properties: { name: { type: "string" } },
      required: ["name"],
    });
    expect(check({ name: "a" })).toMatchObject({ valid: true, data: { name: "a" } });
    const wrong = check({ name: 1 });
    expect(wrong.valid).toBe(false);
    expect(wrong.errorMessage).toMatch(/name/);
  });
});
