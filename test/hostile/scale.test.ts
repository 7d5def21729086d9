// The scale paths of issue 15 keep their answers: browse exclusions read postings instead of
// tokenising every tool, and "did you mean" skips names by length and letters before any
// distance table. Speed is shown in bench/hostile-input.ts; these check the answers.
import { describe, expect, it } from "vitest";
import { seededRandom, syntheticTools } from "../../bench/synthetic.js";
import { createToolSift } from "../../src/index.js";
import { boundedEditDistance, suggestNames } from "../../src/internal/index.js";

function naiveSuggest(unknown: string, names: readonly string[], max = 3): string[] {
  const wanted = unknown.toLowerCase().trim();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const scored: { name: string; score: number }[] = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    const suffix = (long: string, short: string) =>
      long.length > short.length &&
      /[_.:/-]/.test(long.charAt(long.length - short.length - 1)) &&
      long.endsWith(short);
    let score: number | undefined;
    if (lower === wanted) score = 0;
    else if (suffix(lower, wanted) || suffix(wanted, lower)) score = 0.5;
    else {
      const distance = boundedEditDistance(wanted, lower, limit);
      if (distance <= limit) score = distance;
    }
    if (score !== undefined) scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, max).map((item) => item.name);
}

describe("scale paths keep their answers", () => {
  it("suggestNames equals the plain scan on 150 seeded probes", () => {
    const names = syntheticTools(1_000).map((tool) => tool.name);
    names.push("mcp__x__ask_codex", "Read_File", "löschen_datei");
    const random = seededRandom(15);
    for (let probe = 0; probe < 150; probe += 1) {
      const base = names[Math.floor(random() * names.length)] as string;
      const cut = Math.floor(random() * base.length);
      const mutated =
        probe % 4 === 0
          ? base.slice(cut)
          : probe % 4 === 1
            ? `${base.slice(0, cut)}x${base.slice(cut + 1)}`
            : probe % 4 === 2
              ? base.toUpperCase()
              : `zz_${base}`;
      expect(suggestNames(mutated, names), mutated).toEqual(naiveSuggest(mutated, names));
    }
  });

  it("a browse query whose -words exclude everything answers nothing, and keeps the rest otherwise", () => {
    const tools = syntheticTools(2_000);
    const sift = createToolSift({ tools });
    const verbs =
      "get list create update delete search find send read write move copy sync archive restore export import validate render schedule cancel approve reject merge fork clone tag label assign notify publish".split(
        " ",
      );
    // every synthetic tool has one of these words in its name or description, so none is left
    const words = (tool: (typeof tools)[number]) =>
      `${tool.name} ${tool.description}`.toLowerCase().split(/[^a-z]+/);
    expect(tools.filter((tool) => !words(tool).some((word) => verbs.includes(word)))).toEqual([]);
    const everything = sift.search(verbs.map((verb) => `-${verb}`).join(" "));
    expect(everything.kind).toBe("browse");
    expect(everything.hits).toEqual([]);
    const some = sift.search("-issue", { limit: 25 });
    expect(some.hits.length).toBe(25);
    for (const hit of some.hits)
      expect(`${hit.tool.name} ${hit.tool.description}`).not.toMatch(/issue/i);
  });
});
