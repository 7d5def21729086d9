import { describe, expect, it } from "vitest";
import { startNote } from "./start-note.js";

describe("startNote", () => {
  it("names servers still starting and those that failed with why; nothing when all are up", () => {
    const note = startNote({
      notReady: () => ["slow"],
      status: () => [
        { server: "slow", state: "starting", tools: 0 },
        { server: "up", state: "ready", tools: 3 },
        { server: "broken", state: "down", tools: 0, error: `spawn x ENOENT\n${"y".repeat(500)}` },
        // a server with known tools (a dump) stays searchable while down: not named
        { server: "lazy", state: "down", tools: 4, error: "crashed" },
      ],
    });
    expect(note).toContain('Not searched yet, still starting: "slow".');
    expect(note).toContain('Could not start: "broken" (spawn x ENOENT y');
    expect(note).toContain("…)");
    expect(note).not.toContain("lazy");
    expect(
      startNote({ notReady: () => [], status: () => [{ server: "up", state: "ready", tools: 1 }] }),
    ).toBeUndefined();
  });

  it("words the note for a call whose tool was not found", () => {
    const note = startNote(
      {
        notReady: () => ["slow"],
        status: () => [
          { server: "slow", state: "starting", tools: 0 },
          { server: "broken", state: "down", tools: 0, error: "spawn x ENOENT" },
        ],
      },
      "call",
    );
    expect(note).toBe(
      'Still starting: "slow". Their tools join when they are up; call again in a moment.\nCould not start: "broken" (spawn x ENOENT). Their tools cannot be called until they start; the gateway\'s log has the details.',
    );
  });
});
