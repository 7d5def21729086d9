/** Seeded synthetic tool catalogs and queries for speed benchmarks (not for relevance). */
import type { ToolDefinition } from "../src/catalog/index.js";

/** mulberry32: a tiny seeded PRNG so every run builds the same catalog. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const verbs =
  "get list create update delete search find send read write move copy sync archive restore export import validate render schedule cancel approve reject merge fork clone tag label assign notify publish".split(
    " ",
  );
const nouns =
  "issue pull_request repository branch commit file folder message channel user team project task calendar event invoice payment customer order product record table query index document page comment review release deployment pipeline job secret key certificate domain record dns bucket object queue topic subscription alert incident metric log trace dashboard report".split(
    " ",
  );
const fillers =
  "the a for with from into of by on in and or to its all any each new existing selected given current".split(
    " ",
  );
const adjectives =
  "remote local shared private public archived pending active recent default primary external internal temporary".split(
    " ",
  );
const paramNames =
  "id name title body owner repo path limit offset cursor query filter state status labels assignee since until page per_page format region account_id project_id".split(
    " ",
  );
const types = ["string", "integer", "boolean", "number"] as const;

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function sentence(random: () => number, words: number): string {
  const parts: string[] = [];
  for (let index = 0; index < words; index++) {
    const roll = random();
    parts.push(
      roll < 0.35
        ? pick(random, fillers)
        : roll < 0.6
          ? pick(random, nouns).replace("_", " ")
          : roll < 0.8
            ? pick(random, verbs)
            : pick(random, adjectives),
    );
  }
  const text = parts.join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** How a synthetic catalog picks its words: from ~150 fixed words, or from a vocabulary that grows
 * with the catalog (half as many made-up words as tools, at least 300), as real catalogs do. */
export type SyntheticVocabulary = "fixed" | "wide";

const syllables = "ka ri to mu ne sa lo vi de pa gu ze fo hi ba ju".split(" ");

/** The `index`-th made-up word: its base-16 digits as syllables, so every index gives another word. */
function madeUpWord(index: number): string {
  let word = "";
  let rest = index;
  do {
    word += syllables[rest % syllables.length];
    rest = Math.floor(rest / syllables.length);
  } while (rest > 0);
  return word;
}

/** A word of a wide vocabulary of `size` words: low indexes are common (skew 2 gives a long tail). */
function wideWord(random: () => number, size: number, skew = 2): string {
  return madeUpWord(Math.floor(size * random() ** skew));
}

function wideVocabularySize(count: number): number {
  return Math.max(300, Math.round(count / 2));
}

function wideSentence(random: () => number, words: number, size: number): string {
  const parts: string[] = [];
  for (let index = 0; index < words; index++) {
    parts.push(random() < 0.35 ? pick(random, fillers) : wideWord(random, size));
  }
  const text = parts.join(" ");
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** Where a synthetic catalog's words come from: its sentences, name words and parameter names. */
interface WordSource {
  sentence(random: () => number, words: number): string;
  name(random: () => number): string;
  parameter(random: () => number): string;
}

const fixedWords: WordSource = {
  sentence,
  name: (random) => `${pick(random, verbs)}_${pick(random, nouns)}`,
  parameter: (random) => pick(random, paramNames),
};

function wideWords(size: number): WordSource {
  return {
    sentence: (random, words) => wideSentence(random, words, size),
    name: (random) => `${wideWord(random, size)}_${wideWord(random, size)}`,
    parameter: (random) => `${wideWord(random, size)}_${pick(random, paramNames)}`,
  };
}

/** Builds `count` tools named `mcp__<server>__<verb>_<noun>[_n]`, about 600 characters of JSON each. */
export function syntheticTools(
  count: number,
  seed = 42,
  vocabulary: SyntheticVocabulary = "fixed",
): ToolDefinition[] {
  const words = vocabulary === "wide" ? wideWords(wideVocabularySize(count)) : fixedWords;
  const random = seededRandom(seed);
  const tools: ToolDefinition[] = [];
  const servers = Math.max(1, Math.round(count / 40));
  for (let index = 0; index < count; index++) {
    const server = `server${index % servers}`;
    const properties: Record<string, unknown> = {};
    const parameterCount = 2 + Math.floor(random() * 7);
    for (let parameter = 0; parameter < parameterCount; parameter++) {
      properties[words.parameter(random)] = {
        type: pick(random, types),
        description: words.sentence(random, 4 + Math.floor(random() * 6)),
      };
    }
    const sentences = 1 + Math.floor(random() * 3);
    const description = Array.from({ length: sentences }, () =>
      words.sentence(random, 6 + Math.floor(random() * 10)),
    ).join(" ");
    tools.push({
      name: `mcp__${server}__${words.name(random)}_${index}`,
      description,
      server,
      inputSchema: { type: "object", properties },
    });
  }
  return tools;
}

/**
 * Builds 2–4 word queries from the catalog's vocabulary, about 10% of words from outside it. For
 * a wide vocabulary (`toolCount` sizes it as `syntheticTools` does), words lean less to the common
 * ones than the catalog's text does, so rare words are asked for too.
 */
export function syntheticQueries(
  count: number,
  seed = 7,
  vocabulary: SyntheticVocabulary = "fixed",
  toolCount = 10_000,
): string[] {
  const size = wideVocabularySize(toolCount);
  const random = seededRandom(seed);
  const outside = "weather banana quantum guitar velvet harbor".split(" ");
  const queryWord =
    vocabulary === "wide"
      ? () => (random() < 0.1 ? pick(random, outside) : wideWord(random, size, 1.5))
      : () => {
          const roll = random();
          return roll < 0.1
            ? pick(random, outside)
            : roll < 0.5
              ? pick(random, verbs)
              : roll < 0.9
                ? pick(random, nouns).replace("_", " ")
                : pick(random, adjectives);
        };
  const queries: string[] = [];
  for (let index = 0; index < count; index++) {
    const words = 2 + Math.floor(random() * 3);
    const parts: string[] = [];
    for (let word = 0; word < words; word++) parts.push(queryWord());
    queries.push(parts.join(" "));
  }
  return queries;
}
