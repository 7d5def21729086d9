/** Tunable ranking constants, with defaults chosen on half the DEV queries and checked on the other half. */

/** Every constant the ranker uses; `ToolSearchIndex` accepts a partial override. */
export interface RankingConfig {
  k1: number;
  /** Field weights in field-number order (name, server, title, hint, description, param names, param descriptions, enum values). */
  fieldWeights: number[];
  /** Length normalisation per field. */
  fieldB: number[];
  /** Query-word weight by common-English band: index 0 = not common, 1 = most common … 4. */
  bandWeights: number[];
  /** Weight of another inflection of a query word (same Porter stem) relative to the word itself. */
  stemWeight: number;
  /** Weight of an all-digit query word. */
  numberWeight: number;
  /** Weight of a one-letter query word. */
  letterWeight: number;
  /** Weight of a synonym relative to the word it expands. */
  synonymWeight: number;
  /** Weight of a vocabulary neighbour (shared prefix) relative to the word it expands. */
  neighborWeight: number;
  /** A query word whose own terms occur in at least this share of the tools is not expanded. */
  expansionMaxShare: number;
  /** Also expand to vocabulary words that are prefixes of a query word (not only extensions). */
  shorterNeighbors: boolean;
  /** Lexical score factor of a destructive tool the query does not ask for (`unasked-destructive.ts`; 1 = off). */
  unaskedDestructive: number;
  /** Multiplier `1 + coverage * (matched query weight / total)`; rewards hits matching more words. */
  coverage: number;
  /** Query length (in distinct words) beyond which the coverage reward fades. */
  longQuery: number;
  /** Aspect diversification strength λ (0 = off): hits repeating covered query words drop. */
  diversity: number;
  /** Distinct query words needed before diversification applies (short queries have one aspect). */
  diversityMinWords: number;
  /**
   * Name fit of a short query (up to `NAME_FIT_MAX_WORDS` words, `name-fit.ts`): a hit's score is
   * multiplied by `1 - nameFit × share`, where share is its name's information in words the query
   * did not ask for (0 = off).
   */
  nameFit: number;
  /** Bonus (× best score) when the query's words equal a tool name's words. */
  namePhraseBonus: number;
  /** Extra score per query word found in a tool's name, times the word's idf among names. */
  nameBonus: number;
  /** Index joined adjacent name words and join adjacent query words (compound spellings). */
  compounds: boolean;
  /** Weight of two adjacent query words matching two adjacent name words. */
  phraseWeight: number;
  /** Hits scoring below this fraction of the best are cut (search only, not rank). */
  tailCut: number;
  /** Attach to a hit the tool that finds the id it requires (`companions.ts`). */
  finderCompanions: boolean;
  /** Attach to a hit the tools of its server that its description names. */
  mentionCompanions: boolean;
  /** A tool whose learned words hold the whole query gains this share of the best lexical score
   * (`learned-bonus.ts`); the learned field is empty unless usage evidence is set. */
  learnedWeight: number;
}

/** The defaults. */
export const DEFAULT_RANKING: RankingConfig = {
  k1: 1.2,
  fieldWeights: [3, 0.75, 2, 2, 1, 0.7, 0.3, 0.3],
  fieldB: [0.5, 0.3, 0.5, 0.5, 0.75, 0.5, 0.75, 0.5],
  bandWeights: [1, 0.45, 0.75, 0.9, 1],
  stemWeight: 0.5,
  numberWeight: 0.2,
  letterWeight: 1,
  synonymWeight: 0.3,
  neighborWeight: 0.3,
  expansionMaxShare: 0.1,
  shorterNeighbors: false,
  unaskedDestructive: 0.85,
  coverage: 0.5,
  longQuery: 1000,
  diversity: 0.3,
  diversityMinWords: 12,
  nameFit: 0.4,
  namePhraseBonus: 0.5,
  nameBonus: 0.15,
  compounds: true,
  phraseWeight: 0.5,
  tailCut: 0.4,
  finderCompanions: true,
  mentionCompanions: true,
  learnedWeight: 1,
};

/** Merges a partial override onto the defaults. */
export function resolveRanking(override?: Partial<RankingConfig>): RankingConfig {
  return { ...DEFAULT_RANKING, ...override };
}
