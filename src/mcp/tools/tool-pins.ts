/**
 * Pinning upstream tool definitions by fingerprint. The tools of a server seen for the first time
 * are approved as they are (trust on first use) and their fingerprints stored; from then on a
 * tool whose title, annotations, description or schemas differ from its approved fingerprint, and
 * a tool the server did not have when it was approved, are held back (not listed, calls refused)
 * until someone reviews them and runs `toolsift approve`. This guards against a server that
 * changes a tool's text after it was trusted ("rug pull") or adds a lookalike under a new name
 * (`read_file_v2`, `Read_File`), as mcpproxy-go's quarantine does.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { hashCanonical } from "../../catalog/index.js";
import { ToolsiftError } from "../../errors.js";

/** The approvals file: per server, per upstream tool name, the approved fingerprint. A
 * fingerprint carried over from a version-1 file keeps its `v1:` prefix until approved again. */
export interface ToolApprovals {
  version: 2;
  servers: Record<string, Record<string, string>>;
}

/** What pinning says about a listed tool: `outdated` is a version-1 approval (which did not cover
 * title and annotations) of a tool that has a title or annotations, so it needs approving again. */
export type PinVerdict = "approved" | "new" | "changed" | "outdated";

const LEGACY = "v1:";

/** The pins of one gateway, backed by a JSON file. */
export interface ToolPins {
  readonly file: string;
  check(server: string, tool: Tool): PinVerdict;
  /** Whether the server has any approved tool (then its new tools are held, not trusted). */
  knows(server: string): boolean;
  /** Records the tool's current fingerprint as approved (in memory; `save()` writes it). */
  approve(server: string, tool: Tool): void;
  save(): Promise<void>;
  /** Settles when every save started so far is written (closing waits for it, so an approval
   * recorded in the background is on disk before the next start reads the file). */
  flush(): Promise<void>;
  /** The command that approves a held tool, for messages. */
  approveCommand(server: string, tool: string): string;
}

/** The fingerprint pinned for a tool: what a model and a client read (title, annotations such as
 * `destructiveHint`, description) and what it sends and gets (schemas). The name seeds the hash
 * and is the key: a renamed tool is a new tool. */
export function pinFingerprint(tool: Tool): string {
  return hashCanonical(
    {
      title: tool.title,
      annotations: tool.annotations,
      description: tool.description ?? "",
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
    },
    tool.name,
  );
}

/** The version-1 fingerprint (no title, no annotations), to read approval files written then. */
function legacyFingerprint(tool: Tool): string {
  return hashCanonical(
    {
      description: tool.description ?? "",
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
    },
    tool.name,
  );
}

/** Checks a tool against a stored fingerprint (current or version 1). */
function verdictOf(pinned: string | undefined, tool: Tool): PinVerdict {
  if (pinned === undefined) return "new";
  if (!pinned.startsWith(LEGACY)) return pinned === pinFingerprint(tool) ? "approved" : "changed";
  if (pinned.slice(LEGACY.length) !== legacyFingerprint(tool)) return "changed";
  // version 1 never saw a title or annotations: approve only a tool that has neither
  return tool.title === undefined && tool.annotations === undefined ? "approved" : "outdated";
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
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { version: 2, servers: {} };
    throw error;
  }
  const parsed = (() => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  })() as { version?: unknown; servers?: unknown } | undefined;
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
      `The approvals file ${file} is not {"version": 2, "servers": {SERVER: {TOOL: FINGERPRINT}}}; fix it, or delete it to approve every tool again as first seen.`,
    );
  }
  const stored = servers as ToolApprovals["servers"];
  if (parsed?.version !== 1) return { version: 2, servers: stored };
  // a version-1 file: mark its fingerprints, which cover neither title nor annotations
  const marked = Object.entries(stored).map(([server, tools]) => [
    server,
    Object.fromEntries(Object.entries(tools).map(([tool, print]) => [tool, LEGACY + print])),
  ]);
  return { version: 2, servers: Object.fromEntries(marked) };
}

/** Loads (or starts) the approvals file; `configFile` is named in the approve command. */
export async function loadToolPins(file: string, configFile = "CONFIG"): Promise<ToolPins> {
  const approvals = await readApprovals(file);
  let saving: Promise<void> = Promise.resolve();
  return {
    file,
    check: (server, tool) => verdictOf(approvals.servers[server]?.[tool.name], tool),
    knows: (server) => Object.keys(approvals.servers[server] ?? {}).length > 0,
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

/** A tool held back, with why. */
export interface HeldTool {
  tool: Tool;
  verdict: Exclude<PinVerdict, "approved">;
}

/** Splits a server's listed tools into those to publish and those held back. The tools of a
 * server with no approvals yet are approved (trust on first use) and the file saved in the
 * background; once it has approvals, a tool it did not have is held like a changed one, so a
 * lookalike added later (mid-session after `list_changed`, or at the next start) needs review. */
export function screenTools(
  pins: ToolPins,
  server: string,
  tools: readonly Tool[],
  onSaveError: (error: unknown) => void,
): { kept: Tool[]; held: HeldTool[] } {
  const kept: Tool[] = [];
  const held: HeldTool[] = [];
  const firstSight = !pins.knows(server);
  for (const tool of tools) {
    const verdict = pins.check(server, tool);
    if (verdict === "approved") kept.push(tool);
    else if (verdict === "new" && firstSight) {
      pins.approve(server, tool);
      kept.push(tool);
    } else held.push({ tool, verdict });
  }
  if (firstSight && kept.length > 0) pins.save().catch(onSaveError);
  return { kept, held };
}
