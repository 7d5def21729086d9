/** Loads `toolsift/mcp` only when a gateway command runs, so the other commands never need the
 * optional MCP SDK; when it is missing, says how to install it. */
import { ToolsiftError } from "../errors.js";
import { errorText } from "../internal/index.js";

type MCPModule = typeof import("../mcp/index.js");

export const MCP_INSTALL = "npm install @modelcontextprotocol/sdk@1.32.2 zod@4.6.7";

/** Imports the MCP layer; a missing SDK (or zod) becomes an error that names the install command. */
export async function loadMCP(
  importer: () => Promise<MCPModule> = () => import("../mcp/index.js"),
): Promise<MCPModule> {
  try {
    return await importer();
  } catch (error) {
    const message = errorText(error);
    const code = (error as { code?: unknown }).code;
    if (code === "ERR_MODULE_NOT_FOUND" && /@modelcontextprotocol\/sdk|'zod'|"zod"/.test(message)) {
      throw new ToolsiftError(
        "internal",
        `The MCP gateway needs the optional packages @modelcontextprotocol/sdk and zod, which are not installed. Run: ${MCP_INSTALL}`,
        { cause: error },
      );
    }
    throw error;
  }
}
