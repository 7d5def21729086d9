/**
 * Fixed queries over the example catalog (test/fixtures/catalogs/example-tools.json), each with
 * the expected top results in order and why. A failure here means ranking changed in a way a
 * user would notice; update the expectation only when the new order is better.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { loadCatalogFile } from "../../src/catalog/node.js";
import { createSearchIndex, type ToolSearchIndex } from "../../src/index.js";

const file = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../fixtures/catalogs/example-tools.json",
);
let index: ToolSearchIndex;

beforeAll(async () => {
  const { tools } = await loadCatalogFile(file);
  index = createSearchIndex();
  for (const tool of tools) index.add(tool);
});

const top = (query: string, k = 3) => index.rank(query, k);

describe("relevance on the example catalog", () => {
  it("a model's keyword query finds the exact action first", () => {
    const [first, ...rest] = top("create a github issue", 3);
    expect(first).toBe("create_issue"); // name parts "create" + "issue", server "github"
    // then other issue tools of the same server: "issue" in the name, "create" only elsewhere
    for (const name of rest) expect(name).toMatch(/issue/);
  });

  it("a raw request ranks by the rare, meaningful words, not the filler", () => {
    expect(top("take a screenshot of the page", 1)).toEqual([
      "browser.take_screenshot", // "screenshot" is in its name; "take", "the", "of" carry little
    ]);
    expect(top("find a free slot for a meeting", 2)).toEqual([
      "API-get-freebusy", // description: "when people are busy or free … to pick a meeting slot"
      "API-create-event", // schedules a meeting: related, but it does not look for free time
    ]);
  });

  it("paraphrases reach the tool through its description", () => {
    expect(top("rename a file", 1)).toEqual([
      "move-file", // "Move or rename a file": the name says move, the description says rename
    ]);
    expect(top("why is my query slow", 1)).toEqual([
      "explainQuery", // "find slow joins and missing indexes"
    ]);
    expect(top("decline the meeting invitation", 1)).toEqual([
      "API-respond-to-invite", // "Accept, decline or tentatively accept a meeting invitation"
    ]);
  });

  it("word forms match through stemming and camelCase splitting", () => {
    expect(top("which tables are in the database", 2)).toEqual([
      "listTables", // camelCase "list" + "Tables"; "tables" stems to "tabl"
      "describeTable", // "Table" in the name, singular
    ]);
    expect(top("merge the pull request", 2)).toEqual([
      "merge_pull_request", // every query word is a name part
      "create_pull_request", // "pull" + "request" in the name; "merges" in its description
    ]);
  });

  it("an exact name wins whatever its shape", () => {
    expect(top("list-directory", 1)).toEqual(["list-directory"]); // kebab-case, exact
    expect(top("read_file", 1)).toEqual(["read-file"]); // same words, other separator
    expect(top("`runQuery`", 1)).toEqual(["runQuery"]); // backticks stripped
  });
});
