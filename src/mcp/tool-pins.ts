/**
 * Pinning upstream tool definitions by fingerprint. A tool seen for the first time is approved
 * as it is (trust on first use) and its fingerprint stored; a tool whose description or schemas
 * later differ from the approved fingerprint is held back (not listed, calls refused) until
 * someone reviews it and runs `toolsift approve`. This guards against a server that changes a
 * tool's text after it was trusted ("rug pull"), as mcpproxy-go's quarantine does.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { hashCanonical } from "../catalog/index.js";
import { ToolsiftError } from "../errors.js";

/** The approvals file: per server, per upstream tool name, the approved fingerprint. */
export interface ToolApprovals {
  version: 1;
  servers: Record<string, Record<string, string>>;
}

/** What pinning says about a listed tool. */
export type PinVerdict = "approved" | "new" | "changed";

/** The pins of one gateway, backed by a JSON file. */
export interface ToolPins {
  readonly file: string;
  check(server: string, tool: Tool): PinVerdict;
  /** Records the tool's current fingerprint as approved (in memory; `save()` writes it). */
  approve(server: string, tool: Tool): void;
  save(): Promise<void>;
  /** Settles when every save started so far is written (closing waits for it, so an approval
   * recorded in the background is on disk before the next start reads the file). */
  flush(): Promise<void>;
  /** The command that approves a held tool, for messages. */
  approveCommand(server: string, tool: string): string;
}

/** The fingerprint pinned for a tool: what a model reads and what it sends (name excluded: a
 * renamed tool is a new tool). */
export function pinFingerprint(tool: Tool): string {
  return hashCanonical(
    {
      description: tool.description ?? "",
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
    },
    tool.name,
  );
}

/** The default approvals file for a config: `NAME.approvals.json` beside `NAME.json`. */
export function defaultApprovalsFile(configFile: string): string {
  const parsed = path.parse(path.resolve(configFile));
  return path.join(parsed.dir, `${parsed.name}.approvals.json`);
}

async function readApprovals(file: string): Promise<ToolApprovals> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, servers: {} };
    throw error;
  }
  const parsed = (() => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  })() as Partial<ToolApprovals> | undefined;
  const servers = parsed?.servers;
  const valid =
    typeof servers === "object" &&
    servers !== null &&
    Object.values(servers).every(
      (tools) =>
        typeof tools === "object" &&
        tools !== null &&
        Object.values(tools).every((value) => typeof value === "string"),
    );
  if (!valid) {
    throw new ToolsiftError(
      "invalid_option",
      `The approvals file ${file} is not {"version": 1, "servers": {SERVER: {TOOL: FINGERPRINT}}}; fix it, or delete it to approve every tool again as first seen.`,
    );
  }
  return { version: 1, servers: servers as ToolApprovals["servers"] };
}

/** Loads (or starts) the approvals file; `configFile` is named in the approve command. */
export async function loadToolPins(file: string, configFile = "CONFIG"): Promise<ToolPins> {
  const approvals = await readApprovals(file);
  let saving: Promise<void> = Promise.resolve();
  return {
    file,
    check(server, tool) {
      const pinned = approvals.servers[server]?.[tool.name];
      if (pinned === undefined) return "new";
      return pinned === pinFingerprint(tool) ? "approved" : "changed";
    },
    approve(server, tool) {
      approvals.servers[server] ??= {};
      approvals.servers[server][tool.name] = pinFingerprint(tool);
    },
    save() {
      // one write at a time (servers list in parallel), each written then renamed: a crash
      // never leaves half a file, which would hold every tool back
      const write = async () => {
        await mkdir(path.dirname(file), { recursive: true });
        const temporary = `${file}.${process.pid}.tmp`;
        await writeFile(temporary, `${JSON.stringify(approvals, null, 2)}\n`);
        await rename(temporary, file);
      };
      saving = saving.then(write, write);
      return saving;
    },
    flush: () => saving.catch(() => undefined),
    approveCommand: (server, tool) =>
      `toolsift approve --config ${configFile} --server ${server} --tool ${tool}`,
  };
}

/** Splits a server's listed tools into those to publish and those changed since approval;
 * tools seen for the first time are approved and the file saved in the background. */
export function screenTools(
  pins: ToolPins,
  server: string,
  tools: readonly Tool[],
  onSaveError: (error: unknown) => void,
): { kept: Tool[]; changed: Tool[] } {
  const kept: Tool[] = [];
  const changed: Tool[] = [];
  let approved = false;
  for (const tool of tools) {
    const verdict = pins.check(server, tool);
    if (verdict === "new") {
      pins.approve(server, tool);
      approved = true;
    }
    (verdict === "changed" ? changed : kept).push(tool);
  }
  if (approved) pins.save().catch(onSaveError);
  return { kept, changed };
}
