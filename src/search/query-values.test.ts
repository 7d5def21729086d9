import { describe, expect, it } from "vitest";
import { rewriteValues, valueWords } from "./query-values.js";

describe("valueWords", () => {
  it("marks web addresses, keeping their words", () => {
    expect(valueWords("https://www.youtube.com/watch?v=x1")).toEqual([
      "https://www.youtube.com/watch?v=x1",
      "url",
    ]);
    expect(valueWords("(www.example.org),")).toEqual(["www.example.org", "url"]);
  });

  it("marks file paths in Unix, home, relative and Windows forms", () => {
    expect(valueWords("/root/markdown/report.md.")).toEqual(["/root/markdown/report.md", "path"]);
    expect(valueWords("~/notes.txt")).toEqual(["~/notes.txt", "path"]);
    expect(valueWords("./src/index.ts")).toEqual(["./src/index.ts", "path"]);
    expect(valueWords("C:\\Users\\me\\a.docx")).toEqual(["C:\\Users\\me\\a.docx", "path"]);
    expect(valueWords("src/search/fields.ts")).toEqual(["src/search/fields.ts", "path"]);
  });

  it("leaves ordinary words and short slash pairs alone", () => {
    for (const word of ["issue", "and/or", "TCP/IP", "50/50", "a.b", "v1.2"]) {
      expect(valueWords(word)).toBeUndefined();
    }
  });
});

describe("rewriteValues", () => {
  it("adds the kind word right after each value and keeps everything else", () => {
    expect(rewriteValues(["save", "it", "to", "/tmp/a/b.md"])).toEqual([
      "save",
      "it",
      "to",
      "/tmp/a/b.md",
      "path",
    ]);
  });
});
