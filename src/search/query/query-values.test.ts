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
    const file = (path: string) => [path, "path", "file"];
    expect(valueWords("/root/markdown/report.md.")).toEqual(file("/root/markdown/report.md"));
    expect(valueWords("~/notes.txt")).toEqual(file("~/notes.txt"));
    expect(valueWords("./src/index.ts")).toEqual(file("./src/index.ts"));
    expect(valueWords("C:\\Users\\me\\a.docx")).toEqual(file("C:\\Users\\me\\a.docx"));
    expect(valueWords("src/search/fields.ts")).toEqual(file("src/search/fields.ts"));
  });

  it("marks a path without an extension as a path only (a folder, not a file)", () => {
    expect(valueWords("/root/pdf/embodied_ai_papers")).toEqual([
      "/root/pdf/embodied_ai_papers",
      "path",
    ]);
    expect(valueWords("~/projects/site/")).toEqual(["~/projects/site/", "path"]);
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
      "file",
    ]);
  });
});
