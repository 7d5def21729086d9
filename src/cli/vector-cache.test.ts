import { mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { VectorCache } from "./vector-cache.js";

const vector = (...values: number[]) => Float32Array.from(values);

function open(dir: string, warnings: string[] = [], maxBytes?: number) {
  return VectorCache.open({
    identity: '["http","http://x/v1","m","",""]',
    dir,
    warn: (message) => warnings.push(message),
    ...(maxBytes !== undefined ? { maxBytes } : {}),
  });
}

describe("VectorCache", () => {
  it("keeps what two processes wrote: each merges the file on disk before it renames its own", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolsift-vectors-"));
    const first = open(dir);
    const second = open(dir);
    first.set("a", vector(1, 0));
    second.set("b", vector(0, 1));
    first.flush();
    second.flush();
    const reopened = open(dir);
    expect(reopened.size).toBe(2);
    expect(Array.from(reopened.get("a") ?? [])).toEqual([1, 0]);
    expect(Array.from(reopened.get("b") ?? [])).toEqual([0, 1]);
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("refuses vectors with NaN or another length, and keeps an all-zero one (a text of no known word)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolsift-vectors-"));
    const cache = open(dir);
    cache.set("a", vector(1, 2));
    cache.set("nan", vector(Number.NaN, 1));
    cache.set("zero", vector(0, 0));
    cache.set("long", vector(1, 2, 3));
    expect(cache.size).toBe(2);
    expect(Array.from(cache.get("zero") ?? [])).toEqual([0, 0]);
  });

  it("stays within its size, dropping the least recently used", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolsift-vectors-"));
    // room for 3 entries of 4 dimensions (16 bytes of values and 60 of header each)
    const cache = open(dir, [], 3 * 76);
    for (const [index, key] of ["a", "b", "c", "d", "e"].entries()) {
      cache.set(key, vector(1, index + 1, 0, 0));
    }
    cache.get("a");
    cache.flush();
    const reopened = open(dir);
    expect(reopened.size).toBe(3);
    expect(reopened.get("a")).toBeDefined();
    expect(reopened.get("e")).toBeDefined();
    const [file] = readdirSync(dir);
    expect(statSync(path.join(dir, file as string)).size).toBeLessThan(3 * 76 + 200);
  });

  it("warns once when the folder cannot be written, and never throws", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "toolsift-vectors-"));
    const blocked = path.join(dir, "file-not-folder");
    writeFileSync(blocked, "");
    const warnings: string[] = [];
    const cache = open(blocked, warnings);
    cache.set("a", vector(1, 0));
    cache.flush();
    cache.set("b", vector(0, 1));
    cache.flush();
    expect(warnings).toEqual([
      expect.stringMatching(/could not write the vector cache in .*Pass --cache DIR or --no-cache/),
    ]);
  });
});
