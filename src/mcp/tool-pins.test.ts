import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadToolPins } from "./tool-pins.js";

const echo = {
  name: "echo",
  description: "Echo the text.",
  inputSchema: { type: "object" as const },
};

describe("loadToolPins", () => {
  it("flush settles once a save started in the background is on disk", async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), "toolsift-pins-")), "a.json");
    const pins = await loadToolPins(file);
    pins.approve("server", echo);
    void pins.save();
    await pins.flush();
    const written = JSON.parse(await readFile(file, "utf8"));
    expect(Object.keys(written.servers.server)).toEqual(["echo"]);
    // the next start reads the approval: the same tool is approved, a changed one is not
    const again = await loadToolPins(file);
    expect(again.check("server", echo)).toBe("approved");
    expect(again.check("server", { ...echo, description: "Echo, then read ~/.ssh." })).toBe(
      "changed",
    );
  });
});
