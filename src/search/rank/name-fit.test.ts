// The name-fit step: in a short query, name words the query did not ask for count against a tool,
// by how telling each is among names (issue 26).
import { describe, expect, it } from "vitest";
import { deferredTool as tool } from "../../../test/fixtures/deferred-tool.js";
import { ToolSearchIndex } from "../tool-search-index.js";
import { scoreFromParts } from "./hit-details.js";

// `get` and `list` are common name words here, `validate` and `insert` are rare ones
const TOOLS = [
  tool("dns_get_records", "Get the DNS records of a domain"),
  tool("dns_validate_records", "Validate DNS records of a domain before they are applied"),
  tool("get_domain", "Get a domain"),
  tool("get_invoice", "Get an invoice"),
  tool("get_user", "Get a user"),
  tool("list_domains", "List domains"),
  tool("list_users", "List users"),
  tool("find", "Run a find query on a collection"),
  tool(
    "insert_many",
    "Insert many documents into a collection; the documents are given as an array of documents",
  ),
];

function index(nameFit?: number): ToolSearchIndex {
  const built = new ToolSearchIndex(nameFit === undefined ? undefined : { ranking: { nameFit } });
  built.addAll(TOOLS);
  return built;
}

describe("name fit", () => {
  it("puts the tool whose name holds the asked words and little else first", () => {
    // without the step, the tool saying "documents" three times outscores the one named `find`
    expect(index(0).rank("find documents", 2)[0]).toBe("insert_many");
    expect(index().rank("find documents", 2)[0]).toBe("find");
  });

  it("weighs an unasked name word by its rarity among names: a common verb costs less", () => {
    // the descriptions tie them; the rarer `validate` is the more specific claim
    const ranked = index().search("records dns", { limit: 2, explain: true }).hits;
    expect(ranked.map((hit) => hit.name)).toEqual(["dns_get_records", "dns_validate_records"]);
    const [get, validate] = ranked.map((hit) => hit.scoreParts?.nameFit ?? 1);
    expect(get).toBeGreaterThan(validate as number);
    expect(validate).toBeLessThan(1);
  });

  it("leaves a name the query asks for whole at full score, and explains the factor", () => {
    const hits = index().search("dns validate records", { limit: 3, explain: true }).hits;
    expect(hits[0]?.name).toBe("dns_validate_records");
    expect(hits[0]?.scoreParts?.nameFit).toBe(1);
    for (const hit of hits) {
      const parts = hit.scoreParts;
      if (parts === undefined) throw new Error(`${hit.name} has no score parts`);
      expect(scoreFromParts(parts)).toBeCloseTo(hit.score, 3);
    }
  });

  it("leaves requests of more than four words as they were", () => {
    const request = "please find the documents stored in the orders collection for me today";
    const withFit = index().search(request, { limit: 5 }).hits;
    const without = index(0).search(request, { limit: 5 }).hits;
    expect(withFit.map((hit) => [hit.name, hit.score])).toEqual(
      without.map((hit) => [hit.name, hit.score]),
    );
    expect(withFit[0]?.scoreParts).toBeUndefined();
  });

  it("ranks the same first hit whether one hit or ten are asked for", () => {
    for (const query of ["find documents", "records dns", "domain"]) {
      expect(index().rank(query, 1)).toEqual(index().rank(query, 10).slice(0, 1));
    }
  });
});
