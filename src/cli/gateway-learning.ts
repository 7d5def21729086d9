/**
 * The gateway's learning (docs/mcp-gateway.md "Learning from use"): on unless `--no-learning` or
 * `"learning": false`, its evidence kept in a file, read at start and written as it changes.
 */
import { randomBytes } from "node:crypto";
import { isToolsiftError } from "../errors.js";
import { type LearningSnapshot, UsageEvidence } from "../learning/index.js";
import { defaultLearningFile, keepLearningFile, readLearningFile } from "../learning/node.js";
import type { GatewayConfig, MCPToolSift } from "../mcp/index.js";
import type { CliIO } from "./io.js";

/** The learning file of a config: its `learning.file`, else the default one; undefined when
 * learning is off. */
export function learningFileOf(
  config: Pick<GatewayConfig, "learning">,
  configPath: string,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (config.learning === false) return undefined;
  return config.learning?.file ?? defaultLearningFile(configPath, env);
}

/** The snapshot in `file`; a file that cannot be used is reported and learning starts afresh
 * (it is rewritten at the next save), so a damaged file never keeps the gateway down. */
function readInitial(file: string, io: CliIO, configPath: string): LearningSnapshot | undefined {
  try {
    const snapshot = readLearningFile(file);
    if (snapshot === undefined) return undefined;
    // checked here, where a bad file can be reported, rather than in the gateway's constructor
    new UsageEvidence().load(snapshot);
    return snapshot as LearningSnapshot;
  } catch (error) {
    const why = isToolsiftError(error) ? error.message : String(error);
    io.stderr(
      `[warn] learning: ${why} Starting without it (it is replaced at the next save; "toolsift learning erase --config ${configPath}" removes it now).\n`,
    );
    return undefined;
  }
}

/** What `openGatewaySift` passes to the facade, and how to keep the file once it runs. */
export function gatewayLearning(
  config: Pick<GatewayConfig, "learning">,
  configPath: string,
  io: CliIO,
  enabled: boolean,
) {
  const file = enabled ? learningFileOf(config, configPath, io.env ?? process.env) : undefined;
  if (file === undefined) return { options: {}, keep: (sift: MCPToolSift) => sift };
  const initial = readInitial(file, io, configPath);
  const learning = {
    ...(initial !== undefined ? { initial } : {}),
    // each run of a stdio gateway is one session named "stdio": a scope per start tells them apart
    sessionScope: randomBytes(8).toString("hex"),
  };
  const keep = (sift: MCPToolSift): MCPToolSift => {
    if (sift.learning === undefined) return sift;
    const keeper = keepLearningFile(sift.learning, file, {
      onError: (error) =>
        io.stderr(`[warn] learning: ${isToolsiftError(error) ? error.message : String(error)}\n`),
    });
    const close = sift.close;
    return Object.assign(sift, {
      close: async () => {
        keeper.close();
        await close();
      },
    });
  };
  return { options: { learning }, keep, file };
}
