import { describe, expect, it } from "vitest";
import { parseQuery } from "./parse-query.js";

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
});
