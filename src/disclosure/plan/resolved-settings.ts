/** The settings one turn runs with: the creation options and the turn's own, defaults applied.
 * Its own file so every stage (plan, meta, call) can name it without importing the planner. */

import type {
  AutoThreshold,
  DirectoryOptions,
  DisclosureMode,
  DisclosureStrategy,
  ListingOptions,
  MetaToolNames,
} from "../types.js";

/** Turn settings with defaults applied (see `resolveSettings`). */
export interface ResolvedSettings {
  mode: DisclosureMode;
  strategy: DisclosureStrategy;
  auto: AutoThreshold;
  listing: ListingOptions | undefined;
  directory: DirectoryOptions | undefined;
  contextWindow: number | undefined;
  nativeSearch: boolean;
  keepMetaTools: boolean;
  names: MetaToolNames;
  defaultLimit: number;
  maxLimit: number;
  /** Token budget of the tools array (meta tools + loaded tools); undefined for none. */
  definitionBudget: number | undefined;
  /** Most tool definitions per request; undefined for no limit. */
  maxTools: number | undefined;
}
