import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sharedDir } from "../../test/shared-dir.js";
import type { JsonSchema } from "../catalog/index.js";
import {
  anthropicStrictViolations,
  anthropicViolations,
  geminiJsonSchemaViolations,
  geminiViolations,
  openAIStrictViolations,
  openAIViolations,
  silentLosses,
} from "./__tests__/rules.js";
import { toAnthropicInputSchema, toAnthropicStrictSchema } from "./anthropic/schema.js";
import { toGeminiSchema } from "./gemini/schema.js";
import { createNameMap } from "./names.js";
import { toOpenAIParameters, toOpenAIStrictSchema } from "./openai/schema.js";
import type { ConversionWarning } from "./warnings.js";

interface CatalogTool {
  server: string;
  name: string;
  inputSchema: JsonSchema;
}

function loadCatalogs(): CatalogTool[] {
  const dir = path.join(sharedDir(), "catalogs");
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .flatMap((file) => {
      const server = file.replace(/\.json$/, "");
      const tools = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as CatalogTool[];
      return tools.map((tool) => ({ server, name: tool.name, inputSchema: tool.inputSchema }));
    });
}

describe("all 1,371 real catalog tools convert for every provider", () => {
  const tools = loadCatalogs();
  const names = createNameMap(tools, { namespace: "server", prefix: "mcp__" });
  const byKind = new Map<string, number>();
  const count = (provider: string, warnings: readonly ConversionWarning[]) => {
    for (const warning of warnings) {
      const key = `${provider} ${warning.code}${warning.keyword ? ` ${warning.keyword}` : ""}`;
      byKind.set(key, (byKind.get(key) ?? 0) + 1);
    }
  };
  const failures: string[] = [];
  const check = (tool: CatalogTool, provider: string, problems: string[]) => {
    if (problems.length > 0)
      failures.push(`${provider} ${tool.server}/${tool.name}: ${problems.slice(0, 3).join("; ")}`);
  };
  let openAIStrict = 0;
  let anthropicStrict = 0;
  let geminiWithoutParameters = 0;
  const strictReasons = new Map<string, number>();

  it("has the expected catalog size", () => {
    expect(tools).toHaveLength(1371);
  });

  it("satisfies each provider's documented rules, with every loss warned", () => {
    for (const tool of tools) {
      const name = names.toProvider(tool.name, tool.server);
      const original = tool.inputSchema;
      const options = { tool: name };

      const anthropic = toAnthropicInputSchema(original, options);
      count("anthropic", anthropic.warnings);
      check(tool, "anthropic", [
        ...anthropicViolations(name, anthropic.schema),
        ...silentLosses(original, anthropic.schema, anthropic.warnings, "plain"),
      ]);

      const anthropicStrictResult = toAnthropicStrictSchema(original, options);
      if (anthropicStrictResult.strict) {
        anthropicStrict++;
        count("anthropic-strict", anthropicStrictResult.warnings);
        check(tool, "anthropic-strict", [
          ...anthropicStrictViolations(name, anthropicStrictResult.schema),
          ...silentLosses(
            original,
            anthropicStrictResult.schema,
            anthropicStrictResult.warnings,
            "anthropicStrict",
          ),
        ]);
      }

      const openai = toOpenAIParameters(original, options);
      count("openai", openai.warnings);
      check(tool, "openai", [
        ...openAIViolations(name, openai.schema),
        ...silentLosses(original, openai.schema, openai.warnings, "plain"),
      ]);

      const strict = toOpenAIStrictSchema(original, options);
      if (strict.strict) {
        openAIStrict++;
        count("openai-strict", strict.warnings);
        check(tool, "openai-strict", [
          ...openAIStrictViolations(name, strict.schema),
          ...silentLosses(original, strict.schema, strict.warnings, "openaiStrict"),
        ]);
      } else {
        const reason = strict.reason.replace(/^\S+ /, "").replace(/"[^"]*"/g, "…");
        strictReasons.set(reason, (strictReasons.get(reason) ?? 0) + 1);
      }

      const gemini = toGeminiSchema(original, options);
      count("gemini", gemini.warnings);
      if (gemini.schema === undefined) geminiWithoutParameters++;
      check(tool, "gemini", [
        ...geminiViolations(name, gemini.schema),
        ...silentLosses(original, gemini.schema ?? { type: "object" }, gemini.warnings, "gemini"),
      ]);

      const geminiJson = toGeminiSchema(original, { ...options, field: "parametersJsonSchema" });
      check(tool, "gemini-json", geminiJsonSchemaViolations(name, geminiJson.schema));
    }
    const report = {
      tools: tools.length,
      openAIStrict,
      anthropicStrictEligible: anthropicStrict,
      geminiWithoutParameters,
      strictReasons: Object.fromEntries([...strictReasons].sort((a, b) => b[1] - a[1])),
      warnings: Object.fromEntries([...byKind].sort()),
    };
    console.log(JSON.stringify(report, null, 1));
    expect(failures.slice(0, 20)).toEqual([]);
    expect(openAIStrict).toBeGreaterThan(0);
    expect(anthropicStrict).toBeGreaterThan(0);
  });
});
