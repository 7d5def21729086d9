/**
 * `sharePins`: tool approvals seen by every replica. The approvals file stays the operator's
 * record; the store adds the pins other replicas made on first sight, so a replica starting
 * after another one holds a tool that changed since, instead of trusting it as first seen.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { pinFingerprint, type ToolPins } from "../tools/tool-pins.js";
import type { SessionStore } from "./session-store.js";

/** The store key of a server's tool (names may hold any character but a NUL). */
const pinKey = (server: string, tool: string) => `${server}\u0000${tool}`;

/** Wraps `pins` so approvals are read from and written to `store` as well. A server the file
 * knows is judged by the file alone (an approval made with `toolsift approve` wins); one it does
 * not know is judged by the pins in the store. */
export async function sharePins(pins: ToolPins, store: SessionStore): Promise<ToolPins> {
  const shared = new Map(Object.entries(await store.pins()));
  const servers = new Set([...shared.keys()].map((key) => key.split("\u0000")[0]));
  const writes: Promise<void>[] = [];
  return {
    ...pins,
    check(server, tool) {
      if (pins.knows(server)) return pins.check(server, tool);
      const pinned = shared.get(pinKey(server, tool.name));
      if (pinned === undefined) return "new";
      return pinned === pinFingerprint(tool) ? "approved" : "changed";
    },
    knows: (server) => pins.knows(server) || servers.has(server),
    approve(server: string, tool: Tool) {
      pins.approve(server, tool);
      const key = pinKey(server, tool.name);
      const print = pinFingerprint(tool);
      shared.set(key, print);
      servers.add(server);
      writes.push(store.setPin(key, print));
    },
    save: () => pins.save(),
    flush: async () => {
      await Promise.allSettled(writes.splice(0));
      await pins.flush();
    },
  };
}
