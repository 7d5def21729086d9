import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { discoverIssuerKeys, loadJose, parseIssuer } from "./issuer-keys.js";

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
  vi.doUnmock("jose");
  vi.resetModules();
});

/** A provider that answers only `documents` (path → body), 404 otherwise. */
async function provider(documents: (base: string) => Record<string, unknown>) {
  let base = "";
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(request.url ?? "");
    const body = documents(base)[request.url ?? ""];
    response.writeHead(body === undefined ? 404 : 200, { "content-type": "application/json" });
    response.end(JSON.stringify(body ?? { error: "not_found" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  cleanup.push(() => new Promise((resolve) => server.close(resolve)));
  return { base, asked };
}

describe("the identity provider's keys", () => {
  it("falls back to OpenID discovery, with the issuer's path in both places", async () => {
    const { base, asked } = await provider((base) => ({
      "/tenant/.well-known/openid-configuration": {
        issuer: `${base}/tenant`,
        jwks_uri: `${base}/tenant/keys`,
      },
    }));
    const keys = await discoverIssuerKeys(`${base}/tenant`);
    expect(keys.jwksUri).toBe(`${base}/tenant/keys`);
    expect(asked).toEqual([
      "/.well-known/oauth-authorization-server/tenant",
      "/.well-known/openid-configuration/tenant",
      "/tenant/.well-known/openid-configuration",
    ]);
  });

  it("refuses a document naming another issuer, and names the documents when none answers", async () => {
    const { base } = await provider((base) => ({
      "/.well-known/oauth-authorization-server": { issuer: `${base}/`, jwks_uri: `${base}/k` },
    }));
    // the trailing slash matters: tokens' `iss` is compared exactly
    await expect(discoverIssuerKeys(base)).rejects.toThrow(
      /names the issuer ".*\/", not ".*"; pass --auth-issuer exactly as it spells it/,
    );
    const empty = await provider(() => ({}));
    await expect(discoverIssuerKeys(empty.base)).rejects.toThrow(
      /none of .*oauth-authorization-server, .*openid-configuration answered/,
    );
  });

  it("accepts https, and http only on loopback", () => {
    expect(parseIssuer("https://login.example.com/").host).toBe("login.example.com");
    expect(parseIssuer("http://127.0.0.1:9").port).toBe("9");
    expect(() => parseIssuer("http://login.example.com")).toThrow(/must use https/);
    expect(() => parseIssuer("not a url")).toThrow(/is not a URL/);
    expect(() => parseIssuer("https://u:p@login.example.com/")).toThrow(/user name/);
  });

  it("names the package to install when jose is missing", async () => {
    vi.doMock("jose", () => {
      throw new Error("Cannot find package 'jose'");
    });
    await expect(loadJose()).rejects.toThrow(/needs the "jose" package.*npm install jose@\^6/);
  });
});
