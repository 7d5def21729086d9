import { describe, expect, it } from "vitest";
import { isToolsiftError, MissingToolsError } from "../errors.js";
import { arrayCatalog, coreTool, mcpTool, substringSearch } from "./__fixtures__/tools.js";
import { createDisclosure } from "./create-disclosure.js";

describe("requireTools (preflight for headless runs)", () => {
  const catalog = arrayCatalog([coreTool("exec"), mcpTool("deploy"), mcpTool("drop_db")]);
  const disclosure = createDisclosure({
    catalog,
    search: substringSearch(catalog),
    isVisible: (tool) => tool.name !== "drop_db",
  });

  it("returns the definitions when every required tool is visible", () => {
    expect(disclosure.requireTools(["exec", "deploy"]).map((tool) => tool.name)).toEqual([
      "exec",
      "deploy",
    ]);
  });

  it("fails closed, naming what is missing and what is hidden (a developer-facing error)", () => {
    let caught: unknown;
    try {
      disclosure.requireTools(["exec", "exex", "drop_db"]);
    } catch (error) {
      caught = error;
    }
    expect(isToolsiftError(caught) && caught.code).toBe("missing_required_tools");
    expect(String((caught as Error).message)).toBe(
      'Required tools are unavailable: "exex" is not in the catalog (closest: exec); "drop_db" is hidden by policy (allow it in the policy or profile). Fix these before starting the run.',
    );
  });

  it("with loaded: true, also fails for a tool that would be deferred", () => {
    expect(() => disclosure.requireTools(["deploy"], { loaded: true })).toThrow(
      /"deploy" would be deferred/,
    );
    expect(
      disclosure.requireTools(["deploy"], { loaded: true, neverDefer: ["deploy"] }),
    ).toHaveLength(1);
  });
});

describe("requireTools error fields", () => {
  it("lists each missing tool with its reason and suggestions, not only prose", () => {
    const catalog = arrayCatalog([coreTool("exec"), mcpTool("deploy"), mcpTool("drop_db")]);
    const disclosure = createDisclosure({
      catalog,
      search: substringSearch(catalog),
      isVisible: (tool) => tool.name !== "drop_db",
    });
    let caught: unknown;
    try {
      disclosure.requireTools(["exex", "drop_db", "deploy"], { loaded: true });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(MissingToolsError);
    expect((caught as MissingToolsError).missing).toEqual([
      { name: "exex", reason: "not_found", suggestions: ["exec"] },
      { name: "drop_db", reason: "hidden", suggestions: [] },
      { name: "deploy", reason: "deferred", suggestions: [] },
    ]);
  });
});
