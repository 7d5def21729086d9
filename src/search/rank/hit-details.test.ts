import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { sharedDir } from "../../../test/shared-dir.js";
import { loadCatalogPaths } from "../../catalog/node.js";
import { ToolSearchIndex } from "../tool-search-index.js";
import { scoreFromParts } from "./hit-details.js";

const index = new ToolSearchIndex();
const words: string[] = [];

beforeAll(async () => {
  const { tools } = await loadCatalogPaths([path.join(sharedDir(), "catalogs")], {
    duplicates: "qualify",
  });
  index.addAll(tools);
  for (const tool of tools.slice(0, 300)) words.push(...(tool.description ?? "").split(/\s+/));
});

describe("hit details on the real catalogs", () => {
  it("gives score parts that reproduce every hit's score within float32 precision", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(), { minLength: 1, maxLength: 16 }),
        fc.boolean(),
        (picks, flat) => {
          const query = picks.map((pick) => words[pick % words.length]).join(" ");
          // a query of punctuation only is refused with a clear error, not scored
          fc.pre(/[a-z0-9]/i.test(query));
          const hits = flat
            ? index.search(query, { limit: 25, explain: true, cut: false }).hits
            : index.search(query, { limit: 10, explain: true }).hits;
          for (const hit of hits) {
            // the stop-word fallback lists names it did not score
            if (hit.confidence === undefined) continue;
            const parts = hit.scoreParts;
            expect(parts).toBeDefined();
            if (parts?.companionOf !== undefined && hit.score === 0) continue;
            const expected = scoreFromParts(parts as NonNullable<typeof parts>);
            expect(Math.abs(expected - hit.score)).toBeLessThanOrEqual(
              Math.max(1e-4, Math.abs(hit.score) * 1e-5),
            );
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("flags a query no tool serves and trusts a clear one", () => {
    expect(index.search("order a pizza for delivery").confidence).not.toBe("strong");
    const clear = index.search("slack post message");
    expect(clear.hits[0]?.name).toBe("slack_post_message");
    expect(clear.confidence).toBe("strong");
    expect(clear.hits[0]?.confidence?.coverage).toBe(1);
  });

  it("keeps a finder out of first place and lists it on the hit that needs it", () => {
    const hits = index.search("retry failed gitlab pipeline").hits;
    expect(hits[0]?.name).toBe("retry_pipeline");
    expect(hits[0]?.companions?.some((c) => c.name === "list_projects")).toBe(true);
  });
});
