import { describe, expect, it } from "vitest";
import {
  checksum,
  handOverSnapshot,
  SnapshotProblem,
  SnapshotReader,
  SnapshotWriter,
} from "./snapshot-format.js";

/** A snapshot with one u32 section [1, 2, 3], placed at `at` in a larger buffer of `room` bytes. */
function placed(at: number, room = 0): Uint8Array {
  const writer = new SnapshotWriter();
  writer.array("numbers", "u32", Uint32Array.from([1, 2, 3]));
  const bytes = writer.finish("fingerprint");
  const buffer = new Uint8Array(at + bytes.length + room);
  buffer.set(bytes, at);
  return buffer.subarray(at, at + bytes.length);
}

describe("SnapshotReader", () => {
  it("views handed-over bytes that start 8-byte aligned in place", () => {
    const bytes = handOverSnapshot(placed(64));
    const numbers = new SnapshotReader(bytes).u32("numbers");
    expect([...numbers]).toEqual([1, 2, 3]);
    expect(numbers.buffer).toBe(bytes.buffer);
  });

  it("copies bytes not handed over, or not aligned, so the caller may reuse them", () => {
    for (const bytes of [placed(64), handOverSnapshot(placed(60))]) {
      const numbers = new SnapshotReader(bytes).u32("numbers");
      bytes.fill(0);
      expect([...numbers]).toEqual([1, 2, 3]);
    }
  });

  it("refuses a section that runs past the handed-over bytes, though their buffer goes on", () => {
    const bytes = placed(64, 64);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const headerLength = view.getUint32(8, true);
    const text = new TextDecoder().decode(bytes.subarray(16, 16 + headerLength));
    // the section claims 9 numbers where 3 (and padding) are stored; same header length
    const longer = text.replace('"numbers":["u32",0,3]', '"numbers":["u32",0,9]');
    expect(longer).not.toBe(text);
    bytes.set(new TextEncoder().encode(longer), 16);
    view.setUint32(12, checksum(bytes, 16), true);
    const reader = new SnapshotReader(handOverSnapshot(bytes));
    expect(() => reader.u32("numbers")).toThrow(SnapshotProblem);
  });
});
