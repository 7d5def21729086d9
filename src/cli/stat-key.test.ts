import { existsSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readStampedKey, stampBeforeRead, stampFile } from "./stat-key.js";

const KEY = "0123456789abcdef0123456789abcdef";

/** A catalog file whose mtime is a whole second long past (its ctime is now). */
function setup(): { file: string; map: string } {
  const dir = mkdtempSync(path.join(tmpdir(), "toolsift-stamps-"));
  const file = path.join(dir, "tools.json");
  writeFileSync(file, '[{"name":"a"}]');
  utimesSync(file, 1_000_000, 1_000_000);
  return { file, map: stampFile(path.join(dir, "cache"), "identity") };
}

/** Runs `body` with the clock moved `seconds` ahead, so files changed now look settled. */
function later<T>(seconds: number, body: () => T): T {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + seconds * 1000);
  try {
    return body();
  } finally {
    vi.useRealTimers();
  }
}

afterEach(() => vi.useRealTimers());

describe("the catalog cache's stamp map (racy rule)", () => {
  it("saves nothing while a file's last change is within 2 s of the read", () => {
    const { file, map } = setup();
    // the ctime is now, whatever the mtime says: the file may still be written in this tick
    stampBeforeRead([file]).save(map, KEY);
    expect(existsSync(map)).toBe(false);
    expect(readStampedKey(map, [file])).toBeUndefined();
  });

  it("saves the key once every file has settled, and finds it while nothing changes", () => {
    const { file, map } = setup();
    later(3, () => stampBeforeRead([file]).save(map, KEY));
    expect(readStampedKey(map, [file])).toBe(KEY);
    // another list of files (a file added to the folder) does not match
    expect(readStampedKey(map, [file, file])).toBeUndefined();
  });

  it("misses a change that kept the size and the mtime (the ctime moved)", () => {
    const { file, map } = setup();
    later(3, () => stampBeforeRead([file]).save(map, KEY));
    writeFileSync(file, '[{"name":"b"}]');
    utimesSync(file, 1_000_000, 1_000_000);
    expect(readStampedKey(map, [file])).toBeUndefined();
  });

  it("misses a file that is gone, and a map that is damaged or of another shape", () => {
    const { file, map } = setup();
    later(3, () => stampBeforeRead([file]).save(map, KEY));
    const saved = readFileSync(map, "latin1");
    expect(readStampedKey(map, [`${file}.gone`])).toBeUndefined();
    writeFileSync(map, saved.slice(0, 20));
    expect(readStampedKey(map, [file])).toBeUndefined();
    writeFileSync(map, saved.replace(KEY, "../../etc/passwd"));
    expect(readStampedKey(map, [file])).toBeUndefined();
    writeFileSync(map, "null");
    expect(readStampedKey(map, [file])).toBeUndefined();
  });

  it("saves nothing when a file could not be stamped before the read", () => {
    const { file, map } = setup();
    later(3, () => stampBeforeRead([file, `${file}.gone`]).save(map, KEY));
    expect(existsSync(map)).toBe(false);
  });
});
