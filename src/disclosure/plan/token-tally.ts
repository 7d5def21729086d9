import type { ToolDefinition } from "../../catalog/index.js";

/** Measures one definition in tokens (the plan's definition counter). */
export type DefinitionMeasure = (tool: ToolDefinition) => number;

/**
 * Tokens of a list of definitions, counted only as far as a question needs. Activation asks
 * "more than N?", which at 100k tools is answered after a few hundred definitions; the exact
 * total (for stats and reason text) is counted on first read. Progress is kept, so asking again
 * with a larger cap resumes where the last count stopped.
 */
export class TokenTally {
  private counted = 0;
  private total = 0;

  constructor(
    private readonly tools: readonly ToolDefinition[],
    private readonly measure: DefinitionMeasure,
  ) {}

  /** The exact total when it is at most `cap`; otherwise some partial sum above `cap`. */
  until(cap: number): number {
    const { tools, measure } = this;
    while (this.total <= cap && this.counted < tools.length) {
      const tool = tools[this.counted] as ToolDefinition;
      this.total += measure(tool);
      this.counted += 1;
    }
    return this.total;
  }

  /** The exact total. */
  exact(): number {
    return this.until(Number.POSITIVE_INFINITY);
  }

  /** How many definitions have been measured so far (for tests that bound the work). */
  get measured(): number {
    return this.counted;
  }
}

// one tally per list and counter: a basis's lists are fixed once built, so progress carries over
// from plan to plan and from activation to the stats a host reads
const tallies = new WeakMap<readonly ToolDefinition[], WeakMap<DefinitionMeasure, TokenTally>>();

/** The shared tally of `tools` under `measure`. */
export function tallyOf(tools: readonly ToolDefinition[], measure: DefinitionMeasure): TokenTally {
  let perList = tallies.get(tools);
  if (!perList) {
    perList = new WeakMap();
    tallies.set(tools, perList);
  }
  let tally = perList.get(measure);
  if (!tally) {
    tally = new TokenTally(tools, measure);
    perList.set(measure, tally);
  }
  return tally;
}

/** Tokens of `tools` by `measure`, counting no further than needed to pass `cap`. */
export function sumTokensUntil(
  tools: readonly ToolDefinition[],
  measure: DefinitionMeasure,
  cap: number,
): number {
  return tallyOf(tools, measure).until(cap);
}
