/**
 * A synchronous `require` for lazy loading, reached through `process.getBuiltinModule` so that no
 * `node:` import sits in the module graph: the root entry still runs where there is none.
 */

type Require = (id: string) => unknown;

/**
 * Node's `require` resolving from `from` (pass `import.meta.url`), or undefined where the runtime
 * has no synchronous require (browsers, some bundlers): callers then load with `import()` first.
 * Heavy modules (Ajv, the tokenizer, the regex engine) load through it on first use, so importing
 * toolsift or running a search does not pay for them.
 */
export function syncRequire(from: string): Require | undefined {
  const builtin = (
    globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }
  ).process?.getBuiltinModule?.("module") as
    | { createRequire(from: string | URL): Require }
    | undefined;
  return builtin?.createRequire(from);
}
