/** Loads `toolsift/mcp` only when a gateway command runs, so the other commands never need the
 * optional MCP SDK; when it is missing, says how to install it. */
import { ToolsiftError } from "../errors.js";
import { errorText } from "../internal/index.js";

type MCPModule = typeof import("../mcp/index.js");

/** The optional packages of the gateway, at the versions toolsift is tested with. */
const MCP_PACKAGES = { "@modelcontextprotocol/sdk": "1.32.2", zod: "4.6.7" } as const;

export const MCP_INSTALL = `npm install ${Object.entries(MCP_PACKAGES)
  .map(([name, version]) => `${name}@${version}`)
  .join(" ")}`;

/** The optional packages an import error says are missing (the first missing one is reported;
 * a second shows when the first is installed). */
function missingPackages(message: string): string[] {
  return Object.keys(MCP_PACKAGES).filter(
    (name) =>
      message.includes(`'${name}'`) ||
      message.includes(`"${name}"`) ||
      message.includes(`'${name}/`),
  );
}

/** Imports the MCP layer; a missing SDK (or zod) becomes an error that names the install command. */
export async function loadMCP(
  importer: () => Promise<MCPModule> = () => import("../mcp/index.js"),
): Promise<MCPModule> {
  try {
    return await importer();
  } catch (error) {
    const message = errorText(error);
    const code = (error as { code?: unknown }).code;
    const missing = code === "ERR_MODULE_NOT_FOUND" ? missingPackages(message) : [];
    if (missing.length > 0) {
      const install = missing
        .map((name) => `${name}@${MCP_PACKAGES[name as keyof typeof MCP_PACKAGES]}`)
        .join(" ");
      const packages = missing.length === 1 ? "package" : "packages";
      throw new ToolsiftError(
        "internal",
        `The MCP gateway needs the optional ${packages} ${missing.join(" and ")}, not installed here. Run: npm install ${install}`,
        { cause: error },
      );
    }
    throw error;
  }
}
