import { describe, expect, it } from "vitest";
import { redactUrls } from "./redact-urls.js";

describe("redactUrls", () => {
  it("strips userinfo, query strings and fragments from every URL in a text", () => {
    expect(
      redactUrls(
        'refused at https://alice:pw@api.example.com:8443/mcp?api_key=sekrit&x=1#frag; then "http://h/p?t=2".',
      ),
    ).toBe('refused at https://api.example.com:8443/mcp?…; then "http://h/p?…".');
  });

  it("leaves text without secrets as it is", () => {
    const plain = "Server at http://127.0.0.1:8080/mcp is down; see https://example.com/docs.";
    expect(redactUrls(plain)).toBe(plain);
  });
});
