import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sharedDir } from "../../test/shared-dir.js";
import { createNameMap, hashBase36, type NameMapTool, sanitizeName } from "./names.js";

const LEGAL_64 = /^[a-zA-Z0-9_-]{1,64}$/;

function catalogTools(): NameMapTool[] {
  const dir = path.join(sharedDir(), "catalogs");
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .flatMap((file) => {
      const server = file.replace(/\.json$/, "");
      const tools = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as { name: string }[];
      return tools.map((tool) => ({ name: tool.name, server }));
    });
}

function shuffle<T>(items: readonly T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let index = copy.length - 1; index > 0; index--) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const other = state % (index + 1);
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

describe("sanitizeName and hashBase36", () => {
  it("replaces each illegal code point with one underscore", () => {
    expect(sanitizeName("admin.tools/list:v2 ok")).toBe("admin_tools_list_v2_ok");
    expect(sanitizeName("é😀x")).toBe("__x");
  });
  it("is stable and has the requested length", () => {
    expect(hashBase36("github\u0000create_issue", 8)).toBe(
      hashBase36("github\u0000create_issue", 8),
    );
    expect(hashBase36("a", 20)).toHaveLength(20);
    expect(hashBase36("a", 6)).not.toBe(hashBase36("b", 6));
  });
});

describe("createNameMap", () => {
  it("keeps legal unique names unchanged and maps back exactly", () => {
    const map = createNameMap([{ name: "search_repos" }, { name: "list-issues" }]);
    expect(map.toProvider("search_repos")).toBe("search_repos");
    expect(map.fromProvider("list-issues")).toBe("list-issues");
    expect(map.fromProvider("nope")).toBeUndefined();
  });

  it("hashes both sides of a sanitising collision, whatever the order", () => {
    const forward = createNameMap([{ name: "a.b" }, { name: "a_b" }]);
    const backward = createNameMap([{ name: "a_b" }, { name: "a.b" }]);
    expect(forward.toProvider("a.b")).not.toBe("a_b");
    expect(forward.toProvider("a_b")).not.toBe("a_b");
    expect(forward.toProvider("a.b")).toMatch(/^a_b_[a-z0-9]{6}$/);
    expect(forward.entries()).toEqual(backward.entries());
  });

  it("shortens long names to a readable head plus a hash", () => {
    const long = `mcp__${"x".repeat(80)}`;
    const name = createNameMap([{ name: long }]).toProvider(long);
    expect(name).toHaveLength(64);
    expect(name.startsWith("mcp__xxx")).toBe(true);
  });

  it("namespaces with the server, always or only on clashes", () => {
    const tools = [
      { name: "create_issue", server: "github" },
      { name: "create_issue", server: "gitlab" },
      { name: "ping", server: "github" },
    ];
    const always = createNameMap(tools, { namespace: "server", prefix: "mcp__" });
    expect(always.toProvider("ping")).toBe("mcp__github__ping");
    const auto = createNameMap(tools, { namespace: "auto" });
    expect(auto.toProvider("ping")).toBe("ping");
    expect(auto.toProvider("create_issue", "gitlab")).toBe("gitlab__create_issue");
    expect(auto.resolve("github__create_issue")).toEqual({
      name: "create_issue",
      server: "github",
      providerName: "github__create_issue",
    });
    expect(() => auto.toProvider("create_issue")).toThrow(/pass the server/);
    expect(() => auto.toProvider("missing")).toThrow(/Unknown tool "missing"/);
  });

  it("prefixes names that must start with a letter", () => {
    const map = createNameMap([{ name: "3d-print" }], { leadingLetter: true });
    expect(map.toProvider("3d-print")).toBe("_3d-print");
  });

  it("rejects duplicates, empty names and tiny limits with clear errors", () => {
    expect(() => createNameMap([{ name: "a" }, { name: "a" }])).toThrow(/listed twice/);
    expect(() => createNameMap([{ name: "" }])).toThrow(/empty name/);
    expect(() => createNameMap([], { maxLength: 4 })).toThrow(/at least 8/);
    expect(() => createNameMap([{ name: "abc" }], { pattern: /^z/ })).toThrow(/fails the pattern/);
  });

  it("resolves a clash between a hashed name and a name that already looks hashed", () => {
    const clash = `a_b_${hashBase36("\u0001a.b", 6)}`;
    const map = createNameMap([{ name: "a.b" }, { name: "a_b" }, { name: clash }]);
    const names = map.entries().map((entry) => entry.providerName);
    expect(new Set(names).size).toBe(3);
    expect(map.toProvider(clash)).toBe(clash);
  });

  it("is bijective, legal and order-independent for arbitrary names (property)", () => {
    const nameArb = fc.oneof(
      fc.string({ minLength: 1, maxLength: 90, unit: "grapheme" }),
      fc.stringMatching(/^[a-z._\-/: ]{1,12}$/),
      fc.string({ minLength: 60, maxLength: 70, unit: fc.constantFrom("a", "_", ".") }),
    );
    const toolArb = fc.record(
      { name: nameArb, server: fc.constantFrom("s1", "s.2", "ß") },
      { requiredKeys: ["name"] },
    );
    const setArb = fc.uniqueArray(toolArb, {
      maxLength: 40,
      selector: (tool) => `${tool.server ?? ""}\u0000${tool.name}`,
    });
    fc.assert(
      fc.property(
        setArb,
        fc.constantFrom("none", "server", "auto"),
        fc.nat(),
        (tools, ns, seed) => {
          const options = { namespace: ns as "none" | "server" | "auto", maxLength: 32 };
          const map = createNameMap(tools, options);
          const legal = /^[a-zA-Z0-9_-]{1,32}$/;
          const names = new Set<string>();
          for (const tool of tools) {
            const providerName = map.toProvider(tool.name, tool.server);
            expect(providerName).toMatch(legal);
            names.add(providerName);
            const entry = map.resolve(providerName);
            expect(entry?.name).toBe(tool.name);
            expect(entry?.server).toBe(tool.server);
          }
          expect(names.size).toBe(tools.length);
          expect(createNameMap(shuffle(tools, seed), options).entries()).toEqual(map.entries());
        },
      ),
      { numRuns: 300 },
    );
  });

  it("maps all real catalog tools as mcp__<server>__<name> within 64 characters", () => {
    const tools = catalogTools();
    expect(tools).toHaveLength(1371);
    const map = createNameMap(tools, { namespace: "server", prefix: "mcp__" });
    const names = map.entries().map((entry) => entry.providerName);
    expect(new Set(names).size).toBe(1371);
    for (const name of names) expect(name).toMatch(LEGAL_64);
    const shortened = map.entries().filter((entry) => {
      return entry.providerName !== `mcp__${entry.server}__${entry.name}`;
    });
    // deps.md: 36 namespaced names exceed 64 characters; nothing else needs changing
    expect(shortened).toHaveLength(36);
    for (const entry of shortened) {
      expect(entry.providerName.startsWith(`mcp__${entry.server}`.slice(0, 20))).toBe(true);
    }
    const again = createNameMap(shuffle(tools, 7), { namespace: "server", prefix: "mcp__" });
    expect(again.entries()).toEqual(map.entries());
  });
});
