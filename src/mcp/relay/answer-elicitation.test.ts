import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createMCPToolSift } from "../create-mcp-toolsift.js";
import type { MCPLogEntry } from "../types.js";
import type { ElicitationRequest } from "./answer-elicitation.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const fixture = path.join(root, "test/fixtures/mcp/conformance-server.mjs");

const text = (result: { content: unknown[] }) =>
  (result.content as { text?: string }[]).map((block) => block.text ?? "").join("");

describe("elicitations with no client session to relay them to", () => {
  it("declines by default and says in the log how to answer instead", async () => {
    const log: MCPLogEntry[] = [];
    const sift = await createMCPToolSift({
      naming: "bare",
      servers: { fixture: { command: "node", args: [fixture] } },
      log: (entry) => log.push(entry),
    });
    try {
      const result = await sift.upstreams.call("test_elicitation", { message: "Your name?" });
      expect(result.isError).not.toBe(true);
      expect(text(result)).toBe("User response: action=decline, content={}");
      const declined = log.find((entry) => entry.message.startsWith("Declined elicitation"));
      expect(declined?.server).toBe("fixture");
      expect(declined?.message).toContain("onElicitation");
      // sampling has no library handler: the server's request is refused, naming the method
      const sampled = await sift.upstreams.call("test_sampling", { prompt: "Hi" });
      expect(text(sampled)).toContain(
        'No client session can answer sampling/createMessage from server "fixture"',
      );
    } finally {
      await sift.close();
    }
  }, 30_000);

  it("answers with onElicitation, filling the schema's defaults into an accepted form", async () => {
    const asked: ElicitationRequest[] = [];
    const sift = await createMCPToolSift({
      naming: "bare",
      servers: { fixture: { command: "node", args: [fixture] } },
      onElicitation: (request) => {
        asked.push(request);
        // the user changed two fields and left the rest as the form showed them
        return { action: "accept", content: { name: "Ada", verified: false } };
      },
    });
    try {
      const result = await sift.upstreams.call("test_elicitation_sep1034_defaults", {});
      const sent = JSON.parse(text(result).replace(/^.*content=/u, ""));
      expect(sent).toEqual({
        name: "Ada",
        age: 30,
        score: 95.5,
        status: "active",
        verified: false,
      });
      expect(asked.map((request) => [request.server, request.params.message])).toEqual([
        ["fixture", "Defaults test"],
      ]);
      // a schema without defaults adds nothing to what the handler answered
      const plain = await sift.upstreams.call("test_elicitation", { message: "Your name?" });
      expect(text(plain)).toBe(
        'User response: action=accept, content={"name":"Ada","verified":false}',
      );
    } finally {
      await sift.close();
    }
  }, 30_000);
});
