import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InvalidToolError, isToolsiftError, type ToolsiftError } from "../errors.js";
import { createCatalog } from "./create-catalog.js";
import type { CatalogChange, ToolDefinition } from "./types.js";

const tool = (name: string, description = `Does ${name}`): ToolDefinition => ({
  name,
  description,
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
});

describe("createCatalog", () => {
  it("stores, gets and lists tools sorted by name", () => {
    const catalog = createCatalog([tool("zeta"), tool("alpha"), tool("Mid")]);
    expect(catalog.size).toBe(3);
    expect(catalog.list().map((entry) => entry.name)).toEqual(["Mid", "alpha", "zeta"]);
    expect(catalog.get("alpha")?.description).toBe("Does alpha");
    expect(catalog.has("zeta")).toBe(true);
    expect(catalog.get("nope")).toBeUndefined();
  });

  it("adds a batch atomically: one bad tool adds nothing and every issue is listed", () => {
    const catalog = createCatalog([tool("existing")]);
    const bad = [tool("new_one"), tool("existing"), { ...tool("x"), name: "bad name" }];
    let thrown: unknown;
    try {
      catalog.add(bad);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidToolError);
    const issues = (thrown as InvalidToolError).issues;
    expect(issues.map((issue) => `${issue.tool}:${issue.code}`)).toEqual([
      "existing:duplicate_tool",
      "bad name:name_invalid",
    ]);
    expect(catalog.has("new_one")).toBe(false);
    expect(catalog.size).toBe(1);
  });

  it("removes and replaces tools", () => {
    const catalog = createCatalog([tool("a"), tool("b")]);
    expect(catalog.remove("a")).toBe(true);
    expect(catalog.remove("a")).toBe(false);
    catalog.replace(tool("b", "new text"));
    expect(catalog.get("b")?.description).toBe("new text");
    catalog.replace(tool("c"));
    expect(catalog.list().map((entry) => entry.name)).toEqual(["b", "c"]);
    expect(() => catalog.replace({ ...tool("d"), inputSchema: { type: "array" } })).toThrow(
      InvalidToolError,
    );
    expect(catalog.has("d")).toBe(false);
  });

  it("keeps stored tools safe from outside mutation", () => {
    const input = { ...tool("a"), tags: ["x"] };
    const catalog = createCatalog([input]);
    input.description = "changed outside";
    input.tags.push("y");
    expect(catalog.get("a")?.description).toBe("Does a");
    expect(catalog.get("a")?.tags).toEqual(["x"]);
    expect(() => {
      (catalog.get("a") as { description: string }).description = "nope";
    }).toThrow(TypeError);
    expect(Object.isFrozen(catalog.list())).toBe(true);
  });

  it("fires events after the change, in order, and stops after unsubscribe", () => {
    const catalog = createCatalog([tool("a")]);
    const seen: string[] = [];
    const unsubscribe = catalog.onChange((change) => {
      // the change is already visible when the listener runs
      seen.push(`${change.type}:${change.tool.name}:${catalog.has(change.tool.name)}`);
      if (change.type === "replace") seen.push(`previous:${change.previous.description}`);
    });
    catalog.add([tool("b"), tool("c")]);
    catalog.replace(tool("a", "v2"));
    catalog.remove("b");
    unsubscribe();
    catalog.add(tool("d"));
    expect(seen).toEqual([
      "add:b:true",
      "add:c:true",
      "replace:a:true",
      "previous:Does a",
      "remove:b:false",
    ]);
  });

  it("a throwing listener does not lose the change or starve other listeners", () => {
    const catalog = createCatalog();
    const later: CatalogChange[] = [];
    catalog.onChange(() => {
      throw new Error("listener bug");
    });
    catalog.onChange((change) => later.push(change));
    let thrown: unknown;
    try {
      catalog.add([tool("a"), tool("b")]);
    } catch (error) {
      thrown = error;
    }
    expect(isToolsiftError(thrown) && (thrown as ToolsiftError).code).toBe("internal");
    expect((thrown as Error).message).toMatch(
      /change was applied, but 2 .*listener bug.*onListenerError/,
    );
    expect((thrown as Error).cause).toBeInstanceOf(AggregateError);
    expect(catalog.size).toBe(2);
    expect(later.map((change) => change.tool.name)).toEqual(["a", "b"]);
  });

  it("routes listener errors to onListenerError when given", () => {
    const reported: string[] = [];
    const catalog = createCatalog([], {
      onListenerError: (error, change) =>
        reported.push(`${(error as Error).message}@${change.tool.name}`),
    });
    catalog.onChange(() => {
      throw new Error("boom");
    });
    catalog.add(tool("a"));
    expect(reported).toEqual(["boom@a"]);
    expect(catalog.has("a")).toBe(true);
  });

  it("fingerprint is cached, changes with content and returns on revert", () => {
    const catalog = createCatalog([tool("a"), tool("b")]);
    const first = catalog.fingerprint();
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    expect(catalog.fingerprint()).toBe(first);
    catalog.replace(tool("a", "edited"));
    const edited = catalog.fingerprint();
    expect(edited).not.toBe(first);
    catalog.replace(tool("a"));
    expect(catalog.fingerprint()).toBe(first);
    catalog.remove("b");
    expect(catalog.fingerprint()).not.toBe(first);
  });

  it("property: insertion order never changes list() or fingerprint()", () => {
    const names = fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9_.-]{1,12}$/), {
      minLength: 1,
      maxLength: 25,
    });
    fc.assert(
      fc.property(
        names.chain((list) =>
          fc.tuple(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length })),
        ),
        fc.integer({ min: 1, max: 5 }),
        ([ordered, shuffled], chunk) => {
          const one = createCatalog(ordered.map((name) => tool(name)));
          const two = createCatalog();
          // the second catalog is filled in shuffled order, in several add() calls
          for (let start = 0; start < shuffled.length; start += chunk) {
            two.add(shuffled.slice(start, start + chunk).map((name) => tool(name)));
          }
          expect(two.list().map((entry) => entry.name)).toEqual(
            one.list().map((entry) => entry.name),
          );
          expect(two.fingerprint()).toBe(one.fingerprint());
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("createCatalog duplicates", () => {
  const tool = (name: string, server?: string) => ({
    name,
    description: "",
    inputSchema: { type: "object" },
    ...(server ? { server } : {}),
  });

  it("qualifies names shared by servers with one warning, or throws with duplicates: error", () => {
    const warnings: string[] = [];
    const catalog = createCatalog(
      [tool("create_issue", "github"), tool("create_issue", "gitlab")],
      {
        onWarning: (message) => warnings.push(message),
      },
    );
    expect(catalog.list().map((t) => t.name)).toEqual([
      "github/create_issue",
      "gitlab/create_issue",
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/create_issue → github\/create_issue, gitlab\/create_issue/);
    catalog.add(tool("create_issue", "jira"));
    expect(catalog.has("jira/create_issue")).toBe(false); // no stored plain create_issue to clash
    expect(() => createCatalog([tool("a", "x"), tool("a", "y")], { duplicates: "error" })).toThrow(
      /duplicate|same name/,
    );
  });

  it("keeps a host tool's bare name and qualifies a server tool that shares it", () => {
    const warnings: string[] = [];
    const onWarning = (message: string) => warnings.push(message);
    const together = createCatalog([tool("read_file"), tool("read_file", "fs")], { onWarning });
    expect(together.list().map((t) => t.name)).toEqual(["fs/read_file", "read_file"]);
    expect(together.get("fs/read_file")?.upstreamName).toBe("read_file");
    const later = createCatalog([tool("read_file")], { onWarning });
    later.add([tool("read_file", "fs"), tool("list_dir", "fs")]);
    expect(later.list().map((t) => t.name)).toEqual(["fs/read_file", "list_dir", "read_file"]);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/read_file → fs\/read_file/);
  });

  it("cannot qualify tools without a server and says how to give them one", () => {
    expect(() => createCatalog([tool("a"), tool("a")], { onWarning: () => {} })).toThrow(
      /fromMCPToolsList\(result, \{ server \}\)/,
    );
  });
});
