import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { VM_TOOLS } from "../../test/fixtures/vm-tools.js";
import { capture } from "./__tests__/capture.js";
import { runCli } from "./run-cli.js";

const tools = [
  {
    name: "create_issue",
    description: "Create a new issue in a repository.",
    inputSchema: {
      type: "object",
      properties: { title: { type: "string" }, body: { type: "string" } },
    },
    server: "github",
  },
  {
    name: "list_issues",
    description: "List issues of a repository, optionally filtered by state.",
    inputSchema: {
      type: "object",
      properties: { state: { type: "string", enum: ["open", "closed"] } },
    },
    server: "github",
  },
  {
    name: "send_message",
    description: "Send a message to a Slack channel.",
    inputSchema: {
      type: "object",
      properties: { channel: { type: "string" }, text: { type: "string" } },
    },
    server: "slack",
  },
  {
    name: "read_file",
    description: "Read the contents of a file from disk.",
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
  },
];

let dir = "";
let catalog = "";
let queries = "";

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "toolsift-cli-"));
  catalog = path.join(dir, "tools.json");
  writeFileSync(catalog, JSON.stringify(tools));
  queries = path.join(dir, "queries.jsonl");
  writeFileSync(
    queries,
    [
      { id: "q1", query: "open a new github issue", relevant: ["create_issue"] },
      { id: "q2", query: "post to a slack channel", relevant: ["send_message"] },
      { id: "q3", query: "show the file contents", relevant: ["read_file"] },
    ]
      .map((line) => JSON.stringify(line))
      .join("\n"),
  );
});

describe("toolsift CLI", () => {
  it("prints usage to stderr and exits 2 without a command, to stdout and 0 with --help", async () => {
    const io = capture();
    expect(await runCli([], io)).toBe(2);
    // a bare invocation is a usage mistake: like other errors, its text goes to stderr
    expect(io.err).toContain("Commands:");
    expect(io.out).toBe("");
    expect(await runCli(["--help"], capture())).toBe(0);
  });

  it("rejects an unknown command with exit 2", async () => {
    const io = capture();
    expect(await runCli(["serch", "x"], io)).toBe(2);
    expect(io.err).toContain('Unknown command "serch"');
  });

  it("requires --catalog and says what it accepts", async () => {
    const io = capture();
    expect(await runCli(["search", "issue"], io)).toBe(2);
    expect(io.err).toContain("--catalog PATH is required");
  });

  it("rejects an unknown flag and a limit out of range", async () => {
    const unknown = capture();
    expect(await runCli(["search", "issue", "--catalog", catalog, "--lmit", "3"], unknown)).toBe(2);
    expect(unknown.err).toMatch(/lmit/);
    const range = capture();
    expect(await runCli(["search", "issue", "--catalog", catalog, "--limit", "26"], range)).toBe(2);
    expect(range.err).toContain("--limit must be a whole number from 1 to 25");
  });

  it("searches and prints ranked hits, best first", async () => {
    const io = capture();
    expect(await runCli(["search", "create issue", "--catalog", catalog], io)).toBe(0);
    expect(io.out.split("\n")[0]).toMatch(/^1\. create_issue/);
  });

  it("prints the result object with --json", async () => {
    const io = capture();
    expect(
      await runCli(["search", "slack message", "--catalog", catalog, "--json", "--explain"], io),
    ).toBe(0);
    const result = JSON.parse(io.out);
    expect(result.kind).toBe("keyword");
    expect(result.hits[0].name).toBe("send_message");
    expect(result.hits[0].server).toBe("slack");
    expect(result.hits[0].explanation.length).toBeGreaterThan(0);
  });

  it("explains a destructive tool the query did not ask for with its factor", async () => {
    const file = path.join(dir, "vm-tools.json");
    writeFileSync(file, JSON.stringify(VM_TOOLS));
    const io = capture();
    const args = ["search", "vm snapshot", "--catalog", file, "--explain", "--no-cache"];
    expect(await runCli(args, io)).toBe(0);
    // the parts multiply out to the score: the factor is among them
    const lowered = io.out.split(/\n(?=\d+\. )/).find((hit) => hit.includes("vm_deleteSnapshot"));
    expect(lowered).toContain("× coverage");
    expect(lowered).toMatch(/× unasked 0\.850 \+ phrase/);
  });

  it("prints score parts that give each hit's score, the name fit of a short query among them", async () => {
    const file = path.join(dir, "vm-tools.json");
    writeFileSync(file, JSON.stringify(VM_TOOLS));
    const io = capture();
    const args = ["search", "vm snapshot", "--catalog", file, "--explain", "--no-cache"];
    expect(await runCli(args, io)).toBe(0);
    const hits = io.out.split(/\n(?=\d+\. )/).filter((hit) => /^\d+\. /.test(hit));
    expect(hits.length).toBeGreaterThan(1);
    expect(io.out).toContain("× name fit");
    for (const hit of hits) {
      const score = Number(/^\d+\. \S+\s+([\d.]+)/.exec(hit)?.[1]);
      const line = /score: (.*)/.exec(hit)?.[1] ?? "";
      // the printed expression, evaluated: × and + as written, numbers as printed (3 decimals)
      const expression = line
        .replace(/[a-z][a-z ]*? (?=\d)/g, "")
        .replace(/×/g, "*")
        .replace(/;.*$/, "");
      expect(/^[\d.()*+ ]+$/.test(expression), `${line} -> ${expression}`).toBe(true);
      const computed = Function(`return ${expression}`)() as number;
      expect(computed, line).toBeCloseTo(score, 1);
    }
  });

  it("exits 2 for a query with no letters or digits", async () => {
    const io = capture();
    expect(await runCli(["search", "?!", "--catalog", catalog], io)).toBe(2);
    expect(io.err.length).toBeGreaterThan(0);
  });

  it("ranks every query in input order, at most k names each", async () => {
    const io = capture();
    expect(await runCli(["rank", "--catalog", catalog, "--queries", queries, "--k", "2"], io)).toBe(
      0,
    );
    const lines = io.out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.id)).toEqual(["q1", "q2", "q3"]);
    for (const line of lines) expect(line.ranked.length).toBeLessThanOrEqual(2);
    expect(lines[0].ranked[0]).toBe("create_issue");
    expect(lines[1].ranked[0]).toBe("send_message");
  });

  it("evaluates recall on labelled queries", async () => {
    const io = capture();
    expect(await runCli(["eval", "--catalog", catalog, "--queries", queries, "--json"], io)).toBe(
      0,
    );
    const metrics = JSON.parse(io.out);
    expect(metrics.count).toBe(3);
    expect(metrics.recallAt[10]).toBe(1);
    const text = capture();
    expect(await runCli(["eval", "--catalog", catalog, "--queries", queries], text)).toBe(0);
    expect(text.out).toMatch(/R@5\s+\d\.\d{4}/);
  });

  it("answers an empty query line with an error, not a browse listing", async () => {
    const blank = path.join(dir, "blank.jsonl");
    writeFileSync(blank, '{"id": "a", "query": "   "}\n{"id": "b", "query": "slack"}\n');
    const io = capture();
    expect(await runCli(["rank", "--catalog", catalog, "--queries", blank], io)).toBe(0);
    const [first, second] = io.out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(first).toMatchObject({
      id: "a",
      ranked: [],
      error: expect.stringContaining("empty query"),
    });
    expect(second.ranked[0]).toBe("send_message");
  });

  it("ranks with --usage: words 3 sessions searched before calling a tool bring it first", async () => {
    const asked = path.join(dir, "asked.jsonl");
    writeFileSync(asked, '{"id": "u1", "query": "ping the team"}\n');
    const usage = path.join(dir, "usage.jsonl");
    const line = (session: string) =>
      JSON.stringify({ query: "ping the team", tool: "send_message", session });
    writeFileSync(usage, `${["a", "b", "c"].map(line).join("\n")}\n`);
    const plain = capture();
    expect(await runCli(["rank", "--catalog", catalog, "--queries", asked], plain)).toBe(0);
    expect(JSON.parse(plain.out).ranked).not.toContain("send_message");
    const io = capture();
    const argv = ["rank", "--catalog", catalog, "--queries", asked, "--usage", usage];
    expect(await runCli(argv, io)).toBe(0);
    expect(JSON.parse(io.out).ranked[0]).toBe("send_message");
  });

  it("names the line of a malformed usage file and the shape it expects", async () => {
    const usage = path.join(dir, "bad-usage.jsonl");
    writeFileSync(
      usage,
      '{"query": "x", "tool": "send_message", "session": "a"}\n{"query": "x"}\n',
    );
    const io = capture();
    const argv = ["eval", "--catalog", catalog, "--queries", queries, "--usage", usage];
    expect(await runCli(argv, io)).toBe(2);
    expect(io.err).toContain('bad-usage.jsonl:2: each line must be a JSON object {"query"');
  });

  it("names the file and line of a malformed queries file", async () => {
    const bad = path.join(dir, "bad.jsonl");
    writeFileSync(bad, '{"id": "a", "query": "x"}\n{not json}\n');
    const io = capture();
    expect(await runCli(["rank", "--catalog", catalog, "--queries", bad], io)).toBe(2);
    expect(io.err).toContain("bad.jsonl:2");
  });

  it("names the catalog file when it is not valid JSON", async () => {
    const broken = path.join(dir, "broken.json");
    writeFileSync(broken, '[{"name": "x",');
    const io = capture();
    expect(await runCli(["search", "x", "--catalog", broken], io)).toBe(2);
    expect(io.err).toContain("broken.json");
  });
});

describe("toolsift report and prepare", () => {
  it("reports full vs first-turn tokens per provider format as JSON", async () => {
    const io = capture();
    expect(await runCli(["report", "--catalog", catalog, "--json"], io)).toBe(0);
    const report = JSON.parse(io.out);
    expect(report.tools).toBe(tools.length);
    expect(Object.keys(report.full).sort()).toEqual(["anthropic", "gemini", "mcp", "openai"]);
    for (const format of Object.keys(report.full)) {
      expect(report.full[format]).toBeGreaterThan(0);
      expect(report.savings[format]).toBeCloseTo(
        1 - report.firstTurn[format] / report.full[format],
        10,
      );
    }
    // the server directory's own cost: none here, as this small catalog stays fully loaded
    expect(report.firstTurn.mcp).toBe(report.full.mcp);
    expect(report.directoryTokens).toBe(0);
  });

  it("prints the request fragment for a provider, with --reveal and --all-loaded", async () => {
    const io = capture();
    const args = ["prepare", "--catalog", catalog, "--provider", "openai-chat", "--mode", "on"];
    expect(await runCli([...args, "--reveal", "create_issue"], io)).toBe(0);
    const fragment = JSON.parse(io.out);
    const names = fragment.tools.map((tool: { function: { name: string } }) => tool.function.name);
    expect(names).toContain("tool_search");
    expect(names).toContain("create_issue");
    expect(names).not.toContain("send_message");
    expect(fragment.system).toContain("tool_search");

    const all = capture();
    expect(
      await runCli(["prepare", "--catalog", catalog, "--provider", "gemini", "--all-loaded"], all),
    ).toBe(0);
    const declarations = JSON.parse(all.out).config.tools[0].functionDeclarations;
    expect(declarations).toHaveLength(tools.length);
  });

  it("rejects an unknown provider and an unknown --reveal name with exit 2", async () => {
    const provider = capture();
    expect(await runCli(["prepare", "--catalog", catalog, "--provider", "mistral"], provider)).toBe(
      2,
    );
    expect(provider.err).toContain("--provider must be one of");
    const reveal = capture();
    expect(
      await runCli(
        ["prepare", "--catalog", catalog, "--provider", "anthropic", "--reveal", "create_isue"],
        reveal,
      ),
    ).toBe(2);
    expect(reveal.err).toContain('"create_isue" (closest: create_issue');
  });
});
