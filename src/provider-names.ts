/**
 * Tool names as the model calls them under one provider's name rules (issue 20 item 20): the text
 * of toolsift's own answers (search lines, describe, "did you mean") names a tool by the function
 * name the provider was sent (`github-mcp-server_create_issue`), not its catalog name
 * (`github-mcp-server/create_issue`), and the meta tools' `name`/`names` arguments accept it back.
 */

import type { ExecuteOutcome, MetaToolNames } from "./disclosure/index.js";

// a run of name characters; a trailing `.` is tried without it (a name ending a sentence)
const NAME_TOKEN = /[A-Za-z0-9_.:/-]+/g;

/** Both directions of one turn's name map, for names the provider changed only. */
export interface ProviderNameView {
  /** Rewrites the catalog names in toolsift's own answer text to provider names. */
  shown(text: string): string;
  /** The catalog name behind a provider name (unchanged when it is not one). */
  catalog(name: string): string;
}

const views = new WeakMap<ReadonlyMap<string, string>, ProviderNameView | undefined>();

/** The view of a turn's map (catalog name → provider name); undefined when no name differs. */
export function providerNameView(
  providerNames: ReadonlyMap<string, string>,
): ProviderNameView | undefined {
  if (views.has(providerNames)) return views.get(providerNames);
  const toProvider = new Map<string, string>();
  const toCatalog = new Map<string, string>();
  for (const [name, provider] of providerNames) {
    if (name === provider) continue;
    toProvider.set(name, provider);
    toCatalog.set(provider, name);
  }
  const view =
    toProvider.size === 0
      ? undefined
      : {
          shown: (text: string) =>
            text.replace(NAME_TOKEN, (token) => {
              const exact = toProvider.get(token);
              if (exact !== undefined) return exact;
              const bare = token.replace(/\.+$/, "");
              const found = bare === token ? undefined : toProvider.get(bare);
              return found === undefined ? token : found + token.slice(bare.length);
            }),
          catalog: (name: string) => toCatalog.get(name) ?? name,
        };
  views.set(providerNames, view);
  return view;
}

/** The meta tool's arguments with provider names turned back into catalog names. */
export function metaArguments(
  name: string,
  args: unknown,
  meta: MetaToolNames,
  view: ProviderNameView,
): unknown {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
  const record = args as Record<string, unknown>;
  const back = (value: unknown) => (typeof value === "string" ? view.catalog(value) : value);
  if (name === meta.call && "name" in record) return { ...record, name: back(record.name) };
  if (name === meta.describe && "names" in record) {
    const names = record.names;
    return { ...record, names: Array.isArray(names) ? names.map(back) : back(names) };
  }
  return args;
}

/** An answer of toolsift itself (a meta tool, or a call that did not run) with provider names. */
export function shownOutcome(outcome: ExecuteOutcome, view: ProviderNameView): ExecuteOutcome {
  if (outcome.route !== "meta" && outcome.ran) return outcome;
  const content = outcome.content.map((part) =>
    part.type === "text" ? { ...part, text: view.shown(part.text) } : part,
  );
  return { ...outcome, content };
}
