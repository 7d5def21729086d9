/**
 * V8 settings for a CLI process, chosen by its command before the command's code loads. Only the
 * process entry (`main.ts`) sets them: the flags are process-wide, so code run in-process (tests,
 * a host embedding `runCli`) keeps V8's defaults.
 */
import { setFlagsFromString } from "node:v8";

/** V8's default interrupt budget in Node 20 (bytes of bytecode run before a function is
 * considered for optimised code). */
const DEFAULT_INTERRUPT_BUDGET = 67_584;

/**
 * How many times longer `search` runs a function before V8 considers optimising it. A search
 * answers one query and exits, so most of its code (loading, schema checks, the index build)
 * runs once per process: optimising compiles of those functions (tens of ms of CPU each, on the
 * second core) cost more than the optimised code saved (see docs/search-internals.md, ninth
 * pass, for the figures by catalog size).
 */
export const SEARCH_BUDGET_FACTOR = 16;

/** Past this many tools a search's build runs long enough for early optimised code to pay, so
 * the budget goes back to V8's default (`tuneForCatalog`). */
export const LARGE_CATALOG_TOOLS = 20_000;

/**
 * The V8 major versions whose `--interrupt-budget` the factor was measured on (Node 20's V8 11).
 * Later V8s tier up by other counters and no longer know the flag: Node 24's prints "unrecognized
 * flag" on stderr when it is set, so any other V8 keeps its defaults.
 */
const TUNED_V8_MAJORS: readonly string[] = ["11"];

/** How the budget was raised, while it is (to put it back); undefined at V8's defaults. */
let raisedWith: ((flags: string) => void) | undefined;

/** Sets the V8 flags of a process about to run `command` (see `SEARCH_BUDGET_FACTOR`). */
export function tuneV8(
  command: string | undefined,
  setFlags: (flags: string) => void = setFlagsFromString,
  v8Version: string = process.versions.v8,
): void {
  if (command !== "search" || !TUNED_V8_MAJORS.includes(v8Version.split(".")[0] ?? "")) return;
  setFlags(`--interrupt-budget=${DEFAULT_INTERRUPT_BUDGET * SEARCH_BUDGET_FACTOR}`);
  raisedWith = setFlags;
}

/** Called before the index of `toolCount` tools is built or restored: a large catalog gets V8's
 * default budget back. A no-op unless `tuneV8` raised it. */
export function tuneForCatalog(toolCount: number): void {
  if (raisedWith === undefined || toolCount <= LARGE_CATALOG_TOOLS) return;
  raisedWith(`--interrupt-budget=${DEFAULT_INTERRUPT_BUDGET}`);
  raisedWith = undefined;
}
