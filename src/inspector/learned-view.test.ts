import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { createToolSift } from "../create-toolsift.js";
import { createInspectorModel } from "./inspector-model.js";
import { type InspectorServer, startInspectorServer } from "./inspector-server.js";

const tools: ToolDefinition[] = [
  { name: "create_issue", description: "Create a GitHub issue.", inputSchema: { type: "object" } },
  { name: "read_file", description: "Read a file from disk.", inputSchema: { type: "object" } },
];
const TOKEN = "s3cret-token";

/** One raw request (fetch would not let a test forge Origin). */
function call(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? "GET", headers: options.headers },
      (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

const auth = { authorization: `Bearer ${TOKEN}` };
const json = { ...auth, "content-type": "application/json" };

let server: InspectorServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A sift with learning on and "open new bug" / "fetch contents" learned from three sessions. */
function learnedSift() {
  const sift = createToolSift({ tools, learning: {} });
  const evidence = sift.learning?.evidence;
  for (const session of ["a", "b", "c"]) {
    evidence?.record("open a new bug", tools[0] as ToolDefinition, session);
    evidence?.record("fetch contents", tools[1] as ToolDefinition, session);
  }
  return sift;
}

describe("the Learned view's API", () => {
  it("lists learned words, removes one, and the list no longer has it", async () => {
    const sift = learnedSift();
    server = await startInspectorServer({
      model: createInspectorModel(tools),
      token: TOKEN,
      learned: { learning: sift.learning, tool: (name) => sift.catalog.get(name) },
    });
    const before = JSON.parse((await call(`${server.url}api/learned`, { headers: auth })).body);
    expect(before.enabled).toBe(true);
    const issue = before.tools.find((entry: { tool: string }) => entry.tool === "create_issue");
    expect(issue.words.map((w: { word: string }) => w.word).sort()).toEqual([
      "bug",
      "bug new open",
      "new",
      "open",
    ]);
    expect(issue.words[0]).toMatchObject({ sessions: 3 });
    expect(issue.words[0].weight).toBeGreaterThan(0);

    const removed = await call(`${server.url}api/learned/remove`, {
      method: "POST",
      headers: { ...json, origin: server.url.replace(/\/$/, "") },
      body: JSON.stringify({ tool: "create_issue", word: "bug" }),
    });
    expect(removed.status).toBe(200);
    expect(JSON.parse(removed.body)).toMatchObject({ removed: true });
    const after = JSON.parse((await call(`${server.url}api/learned`, { headers: auth })).body);
    const words = after.tools
      .find((entry: { tool: string }) => entry.tool === "create_issue")
      .words.map((w: { word: string }) => w.word);
    expect(words).not.toContain("bug");
    expect(words).toContain("open");
    // the index forgot it too: the learned field no longer carries the word
    expect(
      sift.learning?.evidence
        .learnedWords()
        .get("create_issue")
        ?.map((w) => w.word),
    ).not.toContain("bug");
  });

  it("refuses requests without the token, from a foreign origin, and bad bodies", async () => {
    const sift = learnedSift();
    server = await startInspectorServer({
      model: createInspectorModel(tools),
      token: TOKEN,
      learned: { learning: sift.learning },
    });
    expect((await call(`${server.url}api/learned`)).status).toBe(401);
    const body = JSON.stringify({ tool: "create_issue", word: "bug" });
    const remove = `${server.url}api/learned/remove`;
    const noToken = await call(remove, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(noToken.status).toBe(401);
    const foreign = await call(remove, {
      method: "POST",
      headers: { ...json, origin: "http://evil.example" },
      body,
    });
    expect(foreign.status).toBe(403);
    // a form post (not JSON) is what a cross-site page could send without a preflight
    const form = await call(remove, {
      method: "POST",
      headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
      body: "tool=create_issue&word=bug",
    });
    expect(form.status).toBe(400);
    const missing = await call(remove, {
      method: "POST",
      headers: json,
      body: '{"tool":"create_issue"}',
    });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.body).error.message).toMatch(/word/);
    // POST is for the remove route only
    expect((await call(`${server.url}api/learned`, { method: "POST", headers: json })).status).toBe(
      405,
    );
    expect(
      sift.learning?.evidence
        .learnedWords()
        .get("create_issue")
        ?.map((w) => w.word),
    ).toContain("bug");
  });

  it("says learning is off and how to turn it on", async () => {
    server = await startInspectorServer({ model: createInspectorModel(tools) });
    const view = JSON.parse((await call(`${server.url}api/learned`)).body);
    expect(view).toMatchObject({ enabled: false, tools: [] });
    expect(view.message).toMatch(/--no-learning|learning/);
    const removed = await call(`${server.url}api/learned/remove`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tool: "create_issue", word: "bug" }),
    });
    expect(removed.status).toBe(400);
  });
});
