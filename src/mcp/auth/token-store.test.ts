import { mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseGatewayConfig } from "../config/gateway-config.js";
import { createTokenStore, defaultTokenFile } from "./token-store.js";

const folder = () => mkdtemp(path.join(tmpdir(), "toolsift-token-store-"));

describe("the token store", () => {
  it("lives under XDG_CONFIG_HOME, else ~/.config", () => {
    expect(defaultTokenFile({ XDG_CONFIG_HOME: "/x/conf" })).toBe("/x/conf/toolsift/tokens.json");
    expect(defaultTokenFile({})).toMatch(/\.config\/toolsift\/tokens\.json$/);
  });

  it("writes mode 0600 in a 0700 folder, keeps entries apart by server and URL, removes one", async () => {
    const file = path.join(await folder(), "nested", "tokens.json");
    const store = createTokenStore(file);
    await Promise.all([
      store.update("a", "http://a/mcp", (login) => ({ ...login, tokens: { access_token: "A" } })),
      store.update("b", "http://b/mcp", (login) => ({ ...login, tokens: { access_token: "B" } })),
    ]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);
    expect((await store.get("a", "http://a/mcp"))?.tokens).toEqual({ access_token: "A" });
    expect(await store.get("a", "http://other/mcp")).toBeUndefined();
    expect(await store.remove("a", "http://a/mcp")).toBe(true);
    expect((await store.list()).map((login) => login.server)).toEqual(["b"]);
  });

  it("refuses a file that is not a token file without quoting it", async () => {
    const file = path.join(await folder(), "tokens.json");
    await writeFile(file, "secret-looking-text {");
    const error = await createTokenStore(file)
      .list()
      .catch((caught: Error) => caught);
    expect(String(error)).toContain("is not a toolsift token file. Delete it");
    expect(String(error)).not.toContain("secret-looking-text");
    expect(await readFile(file, "utf8")).toBe("secret-looking-text {");
  });
});

describe("a server's auth block in the config", () => {
  const parse = (auth: unknown) =>
    parseGatewayConfig({ servers: { s: { url: "https://x/mcp", auth } } }, { env: {} });

  it("reads the settings and false", () => {
    const { config, problems } = parse({ clientId: "c", scope: "a b", redirectPort: 8123 });
    expect(problems).toEqual([]);
    expect(config.servers.s).toMatchObject({
      auth: { clientId: "c", scope: "a b", redirectPort: 8123 },
    });
    expect(parse(false).config.servers.s).toMatchObject({ auth: false });
  });

  it("names every problem with its path", () => {
    const { problems } = parse({
      grant: "client_credentials",
      clientSecrt: "x",
      clientMetadataUrl: "http://x/y",
    });
    expect(problems).toEqual([
      expect.stringContaining("servers.s.auth.clientSecrt: unknown"),
      'servers.s.auth: "client_credentials" needs "clientId" and "clientSecret" (or "privateKey").',
      "servers.s.auth.clientMetadataUrl: must be an https:// address.",
    ]);
  });
});
