/**
 * No import loop in `src/`: a loop means neither file can be read (or moved) without the other,
 * and it hides the layering that docs/design.md describes. Type-only imports count too, since
 * they tie the files together for a reader just the same.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../src");

// `import … from "./x.js"`, `export … from "./x.js"`, `import "./x.js"` and `import("./x.js")`
const SPECIFIERS = [
  /(?:^|[\s;])(?:import|export)\s[^;]*?\sfrom\s*["'](\.{1,2}\/[^"']+)["']/g,
  /(?:^|[\s;])import\s*["'](\.{1,2}\/[^"']+)["']/g,
  /\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g,
];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "__fixtures__") out.push(...sourceFiles(full));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name)) {
      out.push(full);
    }
  }
  return out;
}

/** The file a relative specifier names (`./x.js` → `x.ts`, `./dir` → `dir/index.ts`). */
function resolveImport(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(js|ts|mjs|tsx|jsx)$/, "");
  const candidates = [`${stem}.ts`, `${stem}.tsx`, path.join(base, "index.ts")];
  return candidates.find((candidate) => existsSync(candidate));
}

/** Each source file with the source files it imports. */
function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    const text = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
    const targets = new Set<string>();
    for (const pattern of SPECIFIERS) {
      for (const match of text.matchAll(pattern)) {
        const target = resolveImport(file, match[1] as string);
        if (target !== undefined) targets.add(target);
      }
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Every import loop, each as the files of one cycle in import order (Tarjan's components). */
function importLoops(graph: Map<string, string[]>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) as number, order.get(next) as number));
      }
    }
    if (low.get(file) !== order.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    const self = (graph.get(file) ?? []).includes(file);
    if (component.length > 1 || self) loops.push(cycleThrough(graph, new Set(component)));
  };
  for (const file of [...graph.keys()].sort()) if (!order.has(file)) visit(file);
  return loops;
}

/** One cycle inside a strongly connected component, found by a breadth-first walk back to its start. */
function cycleThrough(graph: Map<string, string[]>, component: Set<string>): string[] {
  const start = [...component].sort()[0] as string;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const next of graph.get(file) ?? []) {
      if (!component.has(next)) continue;
      if (next === start) {
        const cycle = [file];
        while (cycle[0] !== start) cycle.unshift(cameFrom.get(cycle[0] as string) as string);
        return cycle;
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return [start];
}

const relative = (file: string) => path.relative(srcDir, file);

describe("import loops in src/", () => {
  it("finds a loop in a graph that has one, naming its files in order", () => {
    const graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts", "d.ts"]],
      ["d.ts", []],
    ]);
    expect(importLoops(graph)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  it("reads the relative imports of every source file", () => {
    const graph = importGraph(srcDir);
    expect(graph.size).toBeGreaterThan(100);
    const root = graph.get(path.join(srcDir, "index.ts")) ?? [];
    expect(root.length).toBeGreaterThan(5);
  });

  it("has none", () => {
    const loops = importLoops(importGraph(srcDir)).map((cycle) =>
      [...cycle, cycle[0] as string].map(relative).join(" -> "),
    );
    expect(loops, `import loops (break each; see docs/design.md):\n${loops.join("\n")}`).toEqual(
      [],
    );
  });
});

describe("provider folders", () => {
  // STYLE: shared code never asks which provider it serves, and a provider never borrows from
  // another: what two providers share lives in src/providers/ itself or its shared schema/
  // folder. Only the registry and the capability table at the top look into the folders.
  it("import nothing from another provider's folder", () => {
    const providers = path.join(srcDir, "providers");
    const folderOf = (file: string) => {
      const [first, ...rest] = path.relative(providers, file).split(path.sep);
      // schema/ is shared by every provider, not one provider's folder
      return rest.length > 0 && first !== ".." && first !== "schema" ? first : undefined;
    };
    const crossings: string[] = [];
    for (const [file, targets] of importGraph(providers)) {
      const from = folderOf(file);
      if (from === undefined) continue;
      for (const target of targets) {
        const to = folderOf(target);
        if (to !== undefined && to !== from)
          crossings.push(`${relative(file)} -> ${relative(target)}`);
      }
    }
    expect(crossings, "move what both need into src/providers/").toEqual([]);
  });
});
