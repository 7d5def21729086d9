// Snapshot of the root entry's public surface. A change to either list is a change to the API:
// update the list here in the same commit, so review sees it.
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as root from "../../src/index.js";

const rootFile = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../src/index.ts");

/** The names the root exports as types only, read with the compiler (what a .d.ts would list). */
function typeOnlyExports(): string[] {
  const program = ts.createProgram([rootFile], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(rootFile);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  if (!moduleSymbol) throw new Error(`cannot read the exports of ${rootFile}`);
  const names: string[] = [];
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const declaration = symbol.declarations?.[0];
    const typeOnly =
      declaration !== undefined &&
      ts.isExportSpecifier(declaration) &&
      (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly);
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (typeOnly || !(target.flags & ts.SymbolFlags.Value)) names.push(symbol.name);
  }
  return names.sort();
}

describe("root entry", () => {
  it("exports these values, and nothing else", () => {
    expect(Object.keys(root).sort()).toEqual([
      "BUILT_IN_PROFILES",
      "DEFAULT_META_TOOL_NAMES",
      "DEFAULT_PROFILE",
      "InvalidToolError",
      "MissingToolsError",
      "ToolNotFoundError",
      "ToolsiftError",
      "applyResultBudget",
      "cl100kCounter",
      "countDefinitionTokens",
      "createCatalog",
      "createDisclosure",
      "createMemoryRevealStore",
      "createPolicy",
      "createResultBudgetTracker",
      "createSearchIndex",
      "createSpillStore",
      "createToolSift",
      "estimateCounter",
      "fingerprintTools",
      "fitToBudget",
      "fromMCPToolsList",
      "isToolsiftError",
      "loadTokenCounter",
      "o200kCounter",
      "revealsFromTranscript",
      "syncSearchIndex",
      "truncateResult",
      "truncateText",
      "validateTools",
    ]);
  });

  it("exports these types", () => {
    expect(typeOnlyExports()).toEqual([
      "AfterCallHook",
      "BeforeCallDecision",
      "BeforeCallHook",
      "BudgetOptions",
      "Catalog",
      "CatalogChange",
      "CatalogOptions",
      "DeferPolicy",
      "DefinitionTokens",
      "Disclosure",
      "DisclosureMode",
      "DisclosureOptions",
      "DisclosureStrategy",
      "EmbedKind",
      "Embedder",
      "ExecuteInput",
      "ExecuteOutcome",
      "FromMCPToolsListOptions",
      "JsonSchema",
      "JsonValue",
      "MissingTool",
      "MissingToolReason",
      "Policy",
      "PolicyDecision",
      "PolicyLayer",
      "PolicyOptions",
      "PrepareInput",
      "ProfileDefinition",
      "ProviderId",
      "ProviderResponseOutcome",
      "ProviderTurn",
      "ProviderTurnInput",
      "RequireToolsOptions",
      "ResultBudgetTracker",
      "RevealStore",
      "SavedVectors",
      "SearchHit",
      "SearchIndexOptions",
      "SearchMode",
      "SearchOptions",
      "SearchOptionsOfToolSift",
      "SearchResult",
      "ServerSummary",
      "SessionResultBudgets",
      "SpillStore",
      "TokenCounter",
      "ToolAnnotations",
      "ToolCallContext",
      "ToolContent",
      "ToolDefinition",
      "ToolHandler",
      "ToolIssue",
      "ToolResult",
      "ToolSearchIndex",
      "ToolSift",
      "ToolSiftOptions",
      "ToolsiftErrorCode",
      "TranscriptEntry",
      "TruncateOptions",
      "TruncationStrategy",
      "TurnPlan",
      "TurnSettings",
      "ValidateToolsOptions",
      "ValidationResult",
    ]);
  });

  it("leaves out the internals that used to leak", () => {
    for (const name of [
      "BaselineBM25",
      "evaluate",
      "boundedEditDistance",
      "countAtMost",
      "planTurn",
      "budgetedBasis",
    ]) {
      expect(root).not.toHaveProperty(name);
    }
  });
});
