/**
 * Prerequisite tools. A tool that requires an entity's id (`movie_id`, `playlistId`) is rarely
 * usable alone: the id comes from a tool of the same server that searches or lists that entity
 * (`search_movie`, `list_playlists`). When the dependent tool ranks high, its finder is pulled up
 * beside it, so a multi-step request gets both steps.
 */

import type { ToolDefinition } from "../../catalog/index.js";
import { splitIdentifier, stem } from "../../text/index.js";
import { IdsByKey } from "../store/ids-by-key.js";

/** Verbs that mark a tool as one that finds entities (by stem), by preference: 0 is best. */
const FINDER_VERBS = new Map([
  ["search", 0],
  ["find", 0],
  ["lookup", 0],
  ["queri", 0],
  ["list", 1],
]);
/** Parameter-name endings that hold an entity's identifier. */
const ID_WORDS = new Set(["id", "ids"]);
const NONE: readonly string[] = [];
/** The entity of a bare `id` parameter, and of a finder whose name names nothing but its server. */
const ANY = "";

/** The stems of the entities a tool's required parameters identify (`person_id` → `person`). */
export function requiredEntities(tool: ToolDefinition): readonly string[] {
  const required = tool.inputSchema.required;
  if (!Array.isArray(required) || required.length === 0) return NONE;
  const out: string[] = [];
  for (const name of required) {
    if (typeof name !== "string") continue;
    const words = splitIdentifier(name);
    const last = words[words.length - 1];
    if (last === undefined || !ID_WORDS.has(last)) continue;
    const entity = words[words.length - 2];
    // a bare `id` names no entity: any finder of the server may supply it
    const stemmed = entity === undefined ? ANY : stem(entity);
    if (entity !== undefined && (entity.length < 2 || /^\d+$/.test(entity))) continue;
    if (!out.includes(stemmed)) out.push(stemmed);
  }
  return out;
}

/** The entities a tool's required parameters identify, each with the parameter that holds it. */
export interface RequiredIds {
  /** Entity stems, as `requiredEntities` gives them. */
  entities: readonly string[];
  /** For each entity, the required parameter holding its id (`movie_id`), or "id". */
  parameters: readonly string[];
}

const NO_IDS: RequiredIds = { entities: NONE, parameters: NONE };

/** The entities `tool` needs and their parameters: all a finder lookup reads of its schema. */
export function requiredIds(tool: ToolDefinition): RequiredIds {
  const entities = requiredEntities(tool);
  if (entities.length === 0) return NO_IDS;
  return { entities, parameters: entities.map((entity) => parameterOf(tool, entity)) };
}

/** The entity stems a finder tool's name offers (its name words other than the verb), or none. */
const FINDER_HINT = /search|find|list|lookup|quer/i;

function finderEntities(tool: ToolDefinition): { entities: string[]; rank: number } | undefined {
  // most names hold no finder verb at all: skip them before splitting and stemming
  if (!FINDER_HINT.test(tool.name)) return undefined;
  const stems = splitIdentifier(tool.name).map((word) => stem(word));
  let verb = Number.POSITIVE_INFINITY;
  for (const word of stems) verb = Math.min(verb, FINDER_VERBS.get(word) ?? verb);
  if (verb === Number.POSITIVE_INFINITY) return undefined;
  const entities = [...new Set(stems.filter((word) => !FINDER_VERBS.has(word)))];
  // `search` or `spotify_search` on server `spotify`: a general finder of that server
  const serverWords = new Set(splitIdentifier(tool.server ?? "").map((word) => stem(word)));
  if (entities.every((word) => serverWords.has(word))) entities.push(ANY);
  // the better verb first, then the shorter name (the more direct tool)
  return { entities, rank: verb * 100 + stems.length };
}

/** The required parameter of `tool` whose entity stem is `entity` (`movie_id` for `movi`). */
function parameterOf(tool: ToolDefinition, entity: string): string {
  const required = tool.inputSchema.required as unknown[];
  for (const name of required) {
    if (typeof name !== "string") continue;
    const words = splitIdentifier(name);
    if (!ID_WORDS.has(words[words.length - 1] ?? "")) continue;
    const word = words[words.length - 2];
    if ((word === undefined ? ANY : stem(word)) === entity) return name;
  }
  return "id";
}

function key(server: string | undefined, entity: string): string {
  return `${server ?? ""}\u0000${entity}`;
}

/**
 * Finder tools by (server, entity), built on first use and then kept up to date; for a document,
 * the best finder of the first entity it needs: a `search`-type verb over `list`, then the
 * shortest name (the most direct tool: `search_movie` over `list_movie_genres`), then by name.
 */
export class PrerequisiteIndex {
  private built = false;
  private readonly finders = new IdsByKey();
  private readonly finderRank: number[] = [];

  /** `needsOf` gives a tool's `requiredIds` by id (`companion-facts.ts` keeps them). */
  constructor(
    private readonly tools: readonly (ToolDefinition | undefined)[],
    private readonly needsOf: (id: number) => RequiredIds,
  ) {}

  /** Records a tool just added under `id` (a no-op until the index is first used). */
  added(id: number, tool: ToolDefinition): void {
    if (this.built) this.register(id, tool, true);
  }

  /** Forgets a tool about to be removed from `id`. */
  removed(id: number, tool: ToolDefinition): void {
    if (this.built) this.register(id, tool, false);
  }

  /** The finder to place beside `doc`, or -1 when it needs none or none exists. */
  finderOf(doc: number): number {
    return this.finderFor(doc)?.finder ?? -1;
  }

  /** The finder of the first id `doc` needs that some tool supplies, with that id's parameter. */
  finderFor(doc: number): { finder: number; parameter: string } | undefined {
    const tool = this.tools[doc];
    if (tool === undefined) return undefined;
    const { entities, parameters } = this.needsOf(doc);
    if (entities.length === 0) return undefined;
    if (!this.built) this.build();
    for (let index = 0; index < entities.length; index += 1) {
      const finder = this.bestFinder(doc, tool.server, entities[index] as string);
      if (finder >= 0) return { finder, parameter: parameters[index] as string };
    }
    // no finder names the entity: a server-wide finder (`search`) may still supply the id
    if (entities.includes(ANY)) return undefined;
    const finder = this.bestFinder(doc, tool.server, ANY);
    return finder >= 0 ? { finder, parameter: parameters[0] as string } : undefined;
  }

  private bestFinder(doc: number, server: string | undefined, entity: string): number {
    let best = -1;
    for (const candidate of this.finders.get(key(server, entity))) {
      const tool = this.tools[candidate];
      if (candidate === doc || tool === undefined) continue;
      // a finder that itself needs the entity's id cannot supply it
      if (this.needsOf(candidate).entities.includes(entity)) continue;
      if (best < 0 || this.better(candidate, best)) best = candidate;
    }
    return best;
  }

  private better(a: number, b: number): boolean {
    const rankA = this.finderRank[a] ?? 0;
    const rankB = this.finderRank[b] ?? 0;
    if (rankA !== rankB) return rankA < rankB;
    return (this.tools[a]?.name ?? "") < (this.tools[b]?.name ?? "");
  }

  private build(): void {
    this.built = true;
    this.tools.forEach((tool, id) => {
      if (tool !== undefined) this.register(id, tool, true);
    });
  }

  private register(id: number, tool: ToolDefinition, add: boolean): void {
    const finder = finderEntities(tool);
    if (finder === undefined) return;
    this.finderRank[id] = finder.rank;
    for (const entity of finder.entities) {
      if (add) this.finders.add(key(tool.server, entity), id);
      else this.finders.delete(key(tool.server, entity), id);
    }
  }
}
