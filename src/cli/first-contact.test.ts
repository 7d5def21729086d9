// Every CLI item of issue 10 (first contact) and issue 15 item 21 (hostile catalog text, FIFOs),
// each checked on its output and exit code.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { capture } from "./__tests__/capture.js";
import { runCli } from "./run-cli.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const schema = { type: "object", properties: { text: { type: "string" } } };
const tool = (name: string, description: string, extra: object = {}) => ({
  name,
  description,
  inputSchema: schema,
  ...extra,
});

let dir = "";
const file = (name: string, content: unknown) => {
  const target = path.join(dir, name);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, typeof content === "string" ? content : JSON.stringify(content));
  return target;
};

let folder = "";
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "toolsift-cli-items-"));
  // three servers serve create_issue, as in ../shared/catalogs; slack's server is "server-slack"
  folder = path.join(dir, "servers");
  file("servers/github.json", { tools: [tool("create_issue", "Create a GitHub issue.")] });
  file("servers/gitlab.json", { tools: [tool("create_issue", "Create a GitLab issue.")] });
  file("servers/jira.json", { tools: [tool("create_issue", "Create a Jira issue.")] });
  file("servers/server-slack.json", {
    tools: [tool("send_message", "Send a message to a Slack channel.")],
  });
});

describe("toolsift CLI: help, version and typos", () => {
  it("prints the package version with --version", async () => {
    const io = capture();
    const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
    expect(await runCli(["--version"], io)).toBe(0);
    expect(io.out).toBe(`${version}\n`);
  });

  it("prints a command's usage for help COMMAND and COMMAND --help", async () => {
    const help = capture();
    expect(await runCli(["help", "search"], help)).toBe(0);
    expect(help.out).toMatch(/^Usage: toolsift search QUERY/);
    const flag = capture();
    expect(await runCli(["report", "--help"], flag)).toBe(0);
    expect(flag.out).toMatch(/^Usage: toolsift report/);
    expect(flag.out).toContain("--by-server");
    // "--limit 5" printing one hit is the tail cut, which the help names
    expect(help.out).toContain("under 0.4 of the top score is left out, so fewer may print");
    const unknown = capture();
    expect(await runCli(["help", "serch"], unknown)).toBe(2);
    expect(unknown.err).toContain('Unknown command "serch". Did you mean "search"?');
  });

  it("suggests the command that was meant", async () => {
    const io = capture();
    expect(await runCli(["raport", "--catalog", folder], io)).toBe(2);
    expect(io.err).toContain('Did you mean "report"?');
  });

  it("reports an unknown flag in its own words, with the flag that was meant", async () => {
    const io = capture();
    expect(await runCli(["search", "issue", "--catalog", folder, "--lmit", "3"], io)).toBe(2);
    const first = io.err.split("\n")[0];
    expect(first).toBe("toolsift search: Unknown flag --lmit. Did you mean --limit?");
    expect(io.err).not.toMatch(/TypeError|ERR_PARSE|'/);
    const value = capture();
    expect(await runCli(["search", "issue", "--catalog"], value)).toBe(2);
    expect(value.err).toContain("--catalog needs a value");
    const boolean = capture();
    expect(await runCli(["search", "x", "--catalog", folder, "--json=yes"], boolean)).toBe(2);
    expect(boolean.err).toContain('--json takes no value (got "yes")');
  });
});

describe("toolsift search: misses explained, exit code 1", () => {
  it("exits 1 when nothing matches, and 0 when something does", async () => {
    const none = capture();
    expect(await runCli(["search", "kubernetes pods", "--catalog", folder], none)).toBe(1);
    expect(none.out).toContain('No tools matched "kubernetes pods"');
    expect(await runCli(["search", "slack message", "--catalog", folder], capture())).toBe(0);
  });

  it("finds server-slack's tools with server:slack, and names the closest server for a typo", async () => {
    const found = capture();
    expect(
      await runCli(["search", "server:slack message", "--catalog", folder, "--json"], found),
    ).toBe(0);
    const hits: { server: string }[] = JSON.parse(found.out).hits;
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.server === "server-slack")).toBe(true);
    const io = capture();
    expect(await runCli(["search", "server:slak message", "--catalog", folder], io)).toBe(1);
    expect(io.out).toContain('No server is named "slak". Did you mean server:server-slack?');
    const json = capture();
    await runCli(["search", "server:slak message", "--catalog", folder, "--json"], json);
    expect(JSON.parse(json.out).unknownServers).toEqual({ slak: ["server-slack"] });
    const far = capture();
    expect(await runCli(["search", "server:zzzzzz message", "--catalog", folder], far)).toBe(1);
    expect(far.out).toContain('No server is named "zzzzzz".');
    expect(far.out).toMatch(/Servers: .*server-slack \(\d+\)/);
  });

  it("says select:create_issue is ambiguous and lists the three qualified names", async () => {
    const io = capture();
    expect(await runCli(["search", "select:create_issue", "--catalog", folder], io)).toBe(1);
    expect(io.out).toContain(
      '"create_issue" is served by 3 servers, so each is named server/name: github/create_issue, gitlab/create_issue, jira/create_issue.',
    );
    expect(io.out).not.toContain("Missing");
    const json = capture();
    await runCli(["search", "select:create_issue", "--catalog", folder, "--json"], json);
    expect(JSON.parse(json.out).ambiguous.create_issue).toHaveLength(3);
  });
});

describe("toolsift loading", () => {
  it("reads the catalog from stdin with --catalog -", async () => {
    const io = capture({
      readStdin: async () => JSON.stringify({ tools: [tool("ping", "Ping a host.")] }),
    });
    expect(await runCli(["search", "ping", "--catalog", "-", "--json"], io)).toBe(0);
    expect(JSON.parse(io.out).hits[0]).toMatchObject({ name: "ping", server: "stdin" });
  });

  it("accepts a saved JSON-RPC response", async () => {
    const envelope = file("envelope.json", {
      jsonrpc: "2.0",
      id: 1,
      result: { tools: [tool("list_pods", "List Kubernetes pods.")] },
    });
    const io = capture();
    expect(await runCli(["search", "pods", "--catalog", envelope], io)).toBe(0);
    expect(io.out).toContain("list_pods");
  });

  it("skips one bad file in a folder with a warning, and fails on it with --strict", async () => {
    const mixed = path.join(dir, "mixed");
    file("mixed/good.json", [tool("ping", "Ping a host.")]);
    file("mixed/broken.json", '[{"name": "x",');
    const io = capture();
    expect(await runCli(["search", "ping", "--catalog", mixed], io)).toBe(0);
    expect(io.err).toMatch(/warning: skipped file .*broken\.json is not valid JSON/);
    expect(io.out).toContain("ping");
    const strict = capture();
    expect(await runCli(["search", "ping", "--catalog", mixed, "--strict"], strict)).toBe(2);
    expect(strict.err).toContain("broken.json");
  });

  it("names the CLI flag for duplicate names: --duplicates error fails, qualify (default) renames", async () => {
    const io = capture();
    const args = ["search", "issue", "--catalog", folder];
    expect(await runCli([...args, "--duplicates", "error"], io)).toBe(2);
    expect(io.err).toContain("create_issue (github, gitlab, jira)");
    expect(io.err).toContain("Pass --duplicates qualify");
    const qualified = capture();
    expect(await runCli([...args, "--json"], qualified)).toBe(0);
    expect(JSON.parse(qualified.out).hits.map((hit: { name: string }) => hit.name)).toContain(
      "github/create_issue",
    );
  });

  it("refuses a FIFO as --catalog instead of hanging", async () => {
    const fifo = path.join(dir, "pipe.json");
    execFileSync("mkfifo", [fifo]);
    const io = capture();
    expect(await runCli(["search", "x", "--catalog", fifo], io)).toBe(2);
    expect(io.err).toContain("is not a regular file");
  }, 10_000);
});

describe("toolsift prepare, eval and report", () => {
  it("explains client-side search when prepare has no --model (no empty model name)", async () => {
    const io = capture();
    expect(await runCli(["prepare", "--catalog", folder, "--provider", "anthropic"], io)).toBe(0);
    const output = JSON.parse(io.out);
    expect(output.search).toMatch(/^no --model given: client-side search/);
    expect(io.out).not.toContain('" is not in');
  });

  it("prepare accepts the lenient names search accepts", async () => {
    const odd = file("odd.json", [tool("PDF&URLTool", "Read a PDF from a URL.")]);
    expect(await runCli(["search", "pdf", "--catalog", odd], capture())).toBe(0);
    const io = capture();
    const args = ["prepare", "--catalog", odd, "--provider", "openai-chat", "--all-loaded"];
    expect(await runCli(args, io)).toBe(0);
    expect(io.out).toContain("PDF");
  });

  it("eval --misses lists the queries whose relevant tool is not in the top k", async () => {
    const queries = file(
      "queries.jsonl",
      [
        { id: "hit", query: "send a slack message", relevant: ["send_message"] },
        { id: "miss", query: "open a jira ticket", relevant: ["no_such_tool"] },
      ]
        .map((line) => JSON.stringify(line))
        .join("\n"),
    );
    const io = capture();
    const args = ["eval", "--catalog", folder, "--queries", queries, "--misses"];
    expect(await runCli(args, io)).toBe(0);
    expect(io.out).toContain("1 of 2 queries missed a relevant tool in the top 5:");
    expect(io.out).toContain("miss  open a jira ticket\n    expected: no_such_tool");
    expect(io.out).not.toMatch(/^hit /m);
    const json = capture();
    await runCli([...args, "--json"], json);
    expect(JSON.parse(json.out).misses.map((miss: { id: string }) => miss.id)).toEqual(["miss"]);
  });

  it("report --by-server lists each server's tools and tokens", async () => {
    const io = capture();
    expect(await runCli(["report", "--catalog", folder, "--by-server"], io)).toBe(0);
    expect(io.out).toMatch(/server\s+tools\s+tokens \(mcp\)\s+share/);
    expect(io.out).toMatch(/server-slack\s+1\s+\d+/);
    const json = capture();
    await runCli(["report", "--catalog", folder, "--by-server", "--json"], json);
    const byServer = JSON.parse(json.out).byServer;
    expect(byServer.map((row: { server: string }) => row.server).sort()).toEqual([
      "github",
      "gitlab",
      "jira",
      "server-slack",
    ]);
  });

  it("report shows progress on stderr only when stderr is a terminal", async () => {
    const terminal = capture({ stderrTTY: true });
    expect(await runCli(["report", "--catalog", folder], terminal)).toBe(0);
    expect(terminal.err).toContain("… counting tokens: anthropic");
    const piped = capture();
    await runCli(["report", "--catalog", folder], piped);
    expect(piped.err).toBe("");
  });
});

describe("toolsift terminal output", () => {
  it("prints an aligned table with colour on a terminal, plain text when piped or NO_COLOR", async () => {
    const args = ["search", "issue", "--catalog", folder];
    const terminal = capture({ stdoutTTY: true, columns: 80 });
    expect(await runCli(args, terminal)).toBe(0);
    expect(terminal.out).toContain("\u001b[1m");
    expect(terminal.out).toMatch(/#\s+tool\s+server\s+score/);
    const noColour = capture({ stdoutTTY: true, env: { NO_COLOR: "1" } });
    await runCli(args, noColour);
    expect(noColour.out).not.toContain("\u001b");
    expect(noColour.out).toMatch(/#\s+tool\s+server\s+score/);
    const piped = capture();
    await runCli(args, piped);
    expect(piped.out).not.toContain("\u001b");
    expect(piped.out).toMatch(/^1\. \S+_issue/);
  });

  it("prints the same --json on a terminal and in a pipe", async () => {
    const args = ["search", "issue", "--catalog", folder, "--json"];
    const terminal = capture({ stdoutTTY: true });
    const piped = capture();
    await runCli(args, terminal);
    await runCli(args, piped);
    expect(terminal.out).toBe(piped.out);
  });

  it("neutralises escape sequences from catalog text, and skips names with format characters", async () => {
    const hostile = file("hostile.json", [
      tool("read_file", "Reads a file.\u001b]0;pwned\u0007\u001b[2J\u009b31m"),
      tool("delete\u202erepo", "Deletes.\u001b[31m red"),
      tool("delete_repo", "Deletes a repository.\u001b[31m red"),
    ]);
    for (const stdoutTTY of [true, false]) {
      const io = capture({ stdoutTTY, env: { NO_COLOR: "1" } });
      expect(await runCli(["search", "file repo reads deletes", "--catalog", hostile], io)).toBe(0);
      for (const char of ["\u001b", "\u0007", "\u009b", "\u202e"]) {
        expect(io.out).not.toContain(char);
        expect(io.err).not.toContain(char);
      }
      // the summary is the first sentence: what follows it (the escapes) is never printed
      expect(io.out).toContain("Reads a file.");
      expect(io.out).not.toContain("pwned");
      // a name that displays as another is refused at load, with the code point named
      expect(io.err).toContain("delete\\u202erepo");
      expect(io.err).toMatch(/U\+202E/i);
    }
    const json = capture();
    await runCli(["search", "deletes", "--catalog", hostile, "--json"], json);
    for (const char of ["\u001b", "\u009b", "\u202e"]) expect(json.out).not.toContain(char);
    expect(JSON.parse(json.out).hits[0].name).toBe("delete_repo");
    const queries = file("hostile.jsonl", JSON.stringify({ id: "q", query: "deletes" }));
    const rank = capture();
    expect(await runCli(["rank", "--catalog", hostile, "--queries", queries], rank)).toBe(0);
    expect(rank.out).not.toContain("\u202e");
    expect(JSON.parse(rank.out).ranked).toEqual(["delete_repo"]);
  });
});

describe("the README's CLI form works from a clone", () => {
  it("npm run -s toolsift -- --version", () => {
    const out = execFileSync("npm", ["run", "-s", "toolsift", "--", "--version"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
    expect(out.trim()).toBe(version);
  }, 30_000);
});
