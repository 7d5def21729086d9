import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ToolDefinition } from "../catalog/index.js";
import { createInspectorModel } from "./inspector-model.js";
import { type InspectorServer, startInspectorServer } from "./inspector-server.js";

const tools: ToolDefinition[] = [
  {
    name: "create_issue",
    description: "Create a GitHub issue.",
    inputSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
    server: "github",
  },
  {
    name: "list_issues",
    description: "List issues of a repository.",
    inputSchema: { type: "object" },
    server: "github",
  },
  {
    name: "read_file",
    description: "Read a file from disk.",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
    server: "filesystem",
  },
];

/** A raw GET with chosen headers (fetch would not let us forge Host). */
function get(url: string, headers: Record<string, string> = {}, method = "GET") {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const req = request(url, { method, headers }, (response) => {
      let body = "";
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          type: String(response.headers["content-type"]),
          body,
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

let server: InspectorServer;
beforeAll(async () => {
  server = await startInspectorServer({ model: createInspectorModel(tools) });
});
afterAll(() => server.close());

describe("the inspector server", () => {
  it("listens on loopback and serves the page and its assets", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await get(server.url);
    expect(page.status).toBe(200);
    expect(page.type).toContain("text/html");
    expect(page.body).toContain("toolsift inspector");
    expect((await get(`${server.url}inspector.js`)).status).toBe(200);
  });

  it("serves every module the page imports and a favicon (the console showed a 404)", async () => {
    for (const path of [
      "inspector-charts.js",
      "inspector-search.js",
      "favicon.svg",
      "favicon.ico",
    ]) {
      const response = await get(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
    }
    expect((await get(`${server.url}favicon.ico`)).type).toBe("image/svg+xml");
  });

  it("says the disclosure reason in words in the catalog view", async () => {
    const view = JSON.parse((await get(`${server.url}api/catalog`)).body);
    expect(view.disclosure.words).toMatch(/^Search is (on|off)/);
    expect(view.disclosure.words).not.toContain("auto:");
  });

  it("answers 404 for anything outside its assets and API", async () => {
    for (const path of [
      "package.json",
      "../package.json",
      "%2e%2e/package.json",
      "assets/index.html",
      "inspector-server.ts",
      "api/nothing",
    ]) {
      const response = await get(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(JSON.parse(response.body).error.code).toBe("not_found");
    }
  });

  it("refuses another Host (DNS rebinding) and a foreign Origin", async () => {
    const port = new URL(server.url).port;
    expect((await get(`${server.url}api/catalog`, { host: `evil.example:${port}` })).status).toBe(
      421,
    );
    expect((await get(`${server.url}api/catalog`, { host: `localhost:${port}` })).status).toBe(200);
    expect((await get(`${server.url}api/catalog`, { origin: "http://evil.example" })).status).toBe(
      403,
    );
    expect(
      (await get(`${server.url}api/catalog`, { origin: `http://127.0.0.1:${port}` })).status,
    ).toBe(200);
    expect((await get(`${server.url}api/catalog`, {}, "POST")).status).toBe(405);
  });

  it("refuses a non-loopback host unless allowed explicitly", async () => {
    await expect(
      startInspectorServer({ model: createInspectorModel(tools), host: "0.0.0.0" }),
    ).rejects.toThrow(/not a loopback address/);
  });

  it("answers a bad query, profile or regex with a JSON error and keeps serving", async () => {
    for (const path of [
      "api/search?q=%2F(%2F",
      "api/search?q=",
      "api/cost?profile=nope",
      "api/catalog?profile=nope",
    ]) {
      const response = await get(`${server.url}${path}`);
      expect(response.status, path).toBe(400);
      expect(JSON.parse(response.body).error.message).toBeTruthy();
    }
    expect((await get(`${server.url}api/catalog`)).status).toBe(200);
  });

  it("serves catalog, search, cost and sessions as JSON", async () => {
    const catalog = JSON.parse((await get(`${server.url}api/catalog`)).body);
    expect(catalog.total).toBe(3);
    expect(catalog.servers.map((s: { server: string }) => s.server).sort()).toEqual([
      "filesystem",
      "github",
    ]);
    const coding = JSON.parse((await get(`${server.url}api/catalog?profile=minimal`)).body);
    expect(coding.counts.hidden).toBeGreaterThan(0);
    const hidden = coding.servers
      .flatMap((s: { tools: { state: string; layer: string }[] }) => s.tools)
      .find((t: { state: string }) => t.state === "hidden");
    expect(hidden.layer).toBe("profile:minimal");
    const search = JSON.parse((await get(`${server.url}api/search?q=create+issue`)).body);
    expect(search.result.hits[0].name).toBe("create_issue");
    expect(search.result.hits[0].signature).toContain("title*");
    expect(search.result.hits[0].explanation.length).toBeGreaterThan(0);
    // three tools are sent whole: no tool_search, and the page says why instead of an error
    expect(search.model).toMatchObject({ isError: false, revealed: [] });
    expect(search.model.text).toContain("the model sees every tool directly");
    const cost = JSON.parse((await get(`${server.url}api/cost`)).body);
    expect(cost.formats.map((f: { name: string }) => f.name)).toEqual([
      "Anthropic",
      "OpenAI Chat",
      "OpenAI Responses",
      "Gemini",
    ]);
    expect(JSON.parse((await get(`${server.url}api/sessions`)).body)).toEqual({
      attached: false,
      sessions: [],
    });
  });
});

describe("the inspector server's port", () => {
  it("names a port in use and how to pick another", async () => {
    const taken = Number(new URL(server.url).port);
    await expect(
      startInspectorServer({ model: createInspectorModel(tools), port: taken }),
    ).rejects.toThrow(`port ${taken}: it is in use. Pick another port`);
  });
});

describe("the inspector server with a gateway attached", () => {
  it("answers an unchanged session log in a few bytes, and passes a mounted path to its handler", async () => {
    let version = 1;
    const mounted: string[] = [];
    const attached = await startInspectorServer({
      model: createInspectorModel(tools),
      sessions: () => ({ attached: true, version, sessions: [] }),
      mount: {
        "/mcp": async (request, response) => {
          mounted.push(`${request.method} ${request.headers.host}`);
          response.writeHead(202).end();
        },
      },
    });
    try {
      const since = (value: number) =>
        get(`${attached.url}api/sessions?since=${value}`).then((answer) => JSON.parse(answer.body));
      expect(await since(1)).toEqual({ attached: true, version: 1, unchanged: true });
      version = 2;
      expect(await since(1)).toEqual({ attached: true, version: 2, sessions: [] });
      // the mounted handler does its own checks: POST and a foreign Host reach it
      expect((await get(`${attached.url}mcp`, { host: "evil.example" }, "POST")).status).toBe(202);
      expect(mounted).toEqual(["POST evil.example"]);
      // everything else still goes through the page's own checks
      expect((await get(`${attached.url}mcp/other`, {}, "POST")).status).toBe(405);
    } finally {
      await attached.close();
    }
  });
});

describe("the inspector with a token (serve --http --token T --inspect)", () => {
  it("requires the token for every API call, and lets the page in once it was given", async () => {
    const guarded = await startInspectorServer({
      model: createInspectorModel(tools),
      token: "s3cret",
      sessions: () => ({ attached: true, sessions: [] }),
    });
    try {
      const api = `${guarded.url}api/sessions`;
      expect((await get(api)).status).toBe(401);
      expect((await get(`${guarded.url}api/catalog`)).status).toBe(401);
      expect((await get(api, { authorization: "Bearer wrong" })).status).toBe(401);
      expect((await get(api, { authorization: "Bearer s3cret" })).status).toBe(200);
      // the page: opened once with ?token=, it keeps the token in a cookie its fetches send
      const opened = await fetch(`${guarded.url}?token=s3cret`, { redirect: "manual" });
      expect(opened.status).toBe(303);
      expect(opened.headers.get("location")).toBe("/");
      const cookie = (opened.headers.get("set-cookie") ?? "").split(";")[0] as string;
      expect(opened.headers.get("set-cookie")).toMatch(/HttpOnly/i);
      expect((await get(api, { cookie })).status).toBe(200);
      expect((await get(api, { cookie: "toolsift_token=wrong" })).status).toBe(401);
      expect((await fetch(`${guarded.url}?token=wrong`, { redirect: "manual" })).status).toBe(401);
    } finally {
      await guarded.close();
    }
  });
});
