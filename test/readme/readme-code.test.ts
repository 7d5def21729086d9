// The README's TypeScript blocks must compile as a user would write them: each block is a module
// that imports from "toolsift" (and its subpaths), type-checked under `strict` against the
// sources. Names a block uses without defining (the user's own `tools`, `messages`, SDK client…)
// are declared once in PRELUDE; a block that defines one shadows it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const PRELUDE = `
import type { ToolDefinition, ToolSift } from "toolsift";
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import type { GoogleGenAI } from "@google/genai";
declare global {
  const tools: ToolDefinition[];
  const sift: ToolSift;
  const name: string;
  const args: Record<string, unknown>;
  const anthropic: Anthropic;
  const openai: OpenAI;
  const genai: GoogleGenAI;
  const model: string;
  const max_tokens: number;
  const messages: Anthropic.MessageParam[];
}
export {};
`;

/** The README's ```ts blocks with the line each starts on. */
function readmeBlocks(markdown: string): { line: number; code: string }[] {
  const blocks: { line: number; code: string }[] = [];
  const lines = markdown.split("\n");
  for (let index = 0; index < lines.length; index += 1) {
    if (!/^```(ts|typescript)\s*$/.test(lines[index] as string)) continue;
    const start = index + 1;
    let end = start;
    while (end < lines.length && !(lines[end] as string).startsWith("```")) end += 1;
    blocks.push({ line: start + 1, code: lines.slice(start, end).join("\n") });
    index = end;
  }
  return blocks;
}

/** "toolsift" and every subpath in package.json, mapped to the source file the build compiles. */
function sourcePaths(): Record<string, string[]> {
  const manifest = JSON.parse(readFileSync(path.join(repo, "package.json"), "utf8")) as {
    exports: Record<string, string | { types?: string }>;
  };
  const paths: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === "string" || !target.types) continue;
    const source = target.types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts");
    paths[subpath === "." ? "toolsift" : `toolsift/${subpath.slice(2)}`] = [
      path.join(repo, source),
    ];
  }
  return paths;
}

describe("README code", () => {
  const blocks = readmeBlocks(readFileSync(path.join(repo, "README.md"), "utf8"));

  it("has TypeScript blocks to check", () => {
    expect(blocks.length).toBeGreaterThan(0);
  });

  it("type-checks every TypeScript block under strict", () => {
    // inside node_modules, so the blocks resolve the SDKs the repository installs
    const folder = mkdtempSync(path.join(repo, "node_modules", ".readme-blocks-"));
    try {
      const files = [path.join(folder, "prelude.ts")];
      writeFileSync(files[0] as string, PRELUDE);
      blocks.forEach((block, index) => {
        const file = path.join(folder, `block-${index + 1}-line-${block.line}.ts`);
        // a block without imports is a script; export {} keeps its names to itself
        writeFileSync(file, `${block.code}\nexport {};\n`);
        files.push(file);
      });
      const program = ts.createProgram(files, {
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        target: ts.ScriptTarget.ES2022,
        lib: ["lib.es2022.d.ts"],
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: true,
        noEmit: true,
        allowImportingTsExtensions: false,
        typeRoots: [path.join(repo, "node_modules/@types")],
        types: ["node"],
        paths: sourcePaths(),
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .filter((diagnostic) => diagnostic.file?.fileName.startsWith(folder) ?? true)
        .map((diagnostic) => {
          const where = diagnostic.file
            ? `${path.basename(diagnostic.file.fileName)}:${
                diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1
              }`
            : "";
          return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")}`;
        });
      expect(problems).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 600_000); // a hang guard: tsc over every block took 197 s on the busy 2-core machine
});
