import { describe, expect, it } from "vitest";
import { parseQuery, QUERY_READ_CHARS } from "./parse-query.js";

describe("parseQuery", () => {
  it("splits keywords, required, excluded and server filters", () => {
    const parsed = parseQuery("+slack send -draft server:Slack `message`");
    expect(parsed.kind).toBe("keyword");
    expect(parsed.words).toEqual(["send", "message"]);
    expect(parsed.required).toEqual(["slack"]);
    expect(parsed.excluded).toEqual(["draft"]);
    expect(parsed.servers).toEqual(["slack"]);
    expect(parsed.text).toBe("slack send message");
  });

  it("detects select:, regex literals and browse", () => {
    expect(parseQuery("select:a, b,a").select).toEqual(["a", "b"]);
    expect(parseQuery("SELECT:x").kind).toBe("select");
    expect(parseQuery("/^get_.*/").text).toBe("^get_.*");
    expect(parseQuery("/^get_.*/", "keyword").kind).toBe("keyword");
    expect(parseQuery("").kind).toBe("browse");
    expect(parseQuery("-delete").kind).toBe("browse");
  });

  it("strips quotes and edge apostrophes but keeps inner ones", () => {
    expect(parseQuery("\u201cread_file\u201d").text).toBe("read_file");
    expect(parseQuery("'user's files'").text).toBe("user's files");
  });

  it("reads an over-long query up to QUERY_READ_CHARS, cut at a space, and says so", () => {
    const long = `create issue ${"alpha beta ".repeat(300_000)}`;
    const parsed = parseQuery(long);
    expect(parsed.cut).toEqual({ read: expect.any(Number), length: long.trimEnd().length });
    const read = parsed.cut?.read ?? 0;
    expect(read).toBeLessThanOrEqual(QUERY_READ_CHARS);
    expect(read).toBeGreaterThan(QUERY_READ_CHARS - 12);
    expect(long[read]).toBe(" ");
    expect(parsed.words.slice(0, 2)).toEqual(["create", "issue"]);
    expect(parsed.words.at(-1)).toMatch(/^(alpha|beta)$/);
    // a query within the limit is read whole
    expect(parseQuery("create issue").cut).toBeUndefined();
    // a text with no space near the limit is cut at the limit; an error never quotes it whole
    expect(parseQuery("x".repeat(QUERY_READ_CHARS * 2)).cut?.read).toBe(QUERY_READ_CHARS);
    expect(() => parseQuery("%".repeat(100_000))).toThrow(/^Query "%{80}…" has no letters/);
  });
});
