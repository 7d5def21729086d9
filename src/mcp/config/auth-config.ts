/** The config's two auth blocks: a remote server's OAuth client settings (`servers.X.auth`) and
 * the top-level `auth` that protects the HTTP gateway, with its per-user profile rules. */
import { suggestNames } from "../../internal/index.js";
import { BUILT_IN_PROFILES } from "../../policy/index.js";
import type { GatewayAuthOptions } from "../auth/bearer-guard.js";
import type { UserProfileRule } from "../auth/user-profiles.js";
import type { UpstreamAuthConfig } from "../types.js";
import { checkKeys, isObject, kind, optional, type Reader } from "./config-reader.js";

/** A server's `auth` block (`docs/auth.md`): `false`, or the OAuth client settings. */
export function readUpstreamAuth(
  read: Reader,
  path: string,
  raw: unknown,
): UpstreamAuthConfig | false | undefined {
  if (raw === undefined || raw === false) return raw;
  if (!isObject(raw)) {
    read.problems.push(
      `${path}: expected false or an object (clientId, scope, …), got ${kind(raw)}.`,
    );
    return undefined;
  }
  const known = new Set<string>(AUTH_KEYS);
  for (const key of Object.keys(raw)) {
    if (!known.has(key)) {
      read.problems.push(`${path}.${key}: unknown; the auth settings are ${AUTH_KEYS.join(", ")}.`);
    }
  }
  const grant = read.oneOf(`${path}.grant`, raw.grant, [
    "authorization_code",
    "client_credentials",
  ] as const);
  type TextKey = "clientId" | "clientSecret" | "clientMetadataUrl" | "scope" | "privateKey";
  const text = <K extends TextKey | "signingAlgorithm" | "clientName">(key: K) =>
    optional(key, read.string(`${path}.${key}`, raw[key]));
  const auth: UpstreamAuthConfig = {
    ...optional("grant", grant),
    ...text("clientId"),
    ...text("clientSecret"),
    ...text("clientMetadataUrl"),
    ...text("scope"),
    ...text("privateKey"),
    ...text("signingAlgorithm"),
    ...text("clientName"),
    ...optional("redirectPort", read.positive(`${path}.redirectPort`, raw.redirectPort)),
  };
  if (
    grant === "client_credentials" &&
    (!auth.clientId || (!auth.clientSecret && !auth.privateKey))
  ) {
    read.problems.push(
      `${path}: "client_credentials" needs "clientId" and "clientSecret" (or "privateKey").`,
    );
  }
  if (auth.clientMetadataUrl !== undefined && !auth.clientMetadataUrl.startsWith("https://")) {
    read.problems.push(`${path}.clientMetadataUrl: must be an https:// address.`);
  }
  return auth;
}

const GATEWAY_AUTH_KEYS = [
  "issuer",
  "audience",
  "scopes",
  "resource",
  "profiles",
  "defaultProfile",
];
const PROFILE_RULE_KEYS = ["claim", "value", "profile"];

/** A profile name the gateway knows (the built-ins: the config declares no custom profiles). */
function readProfileName(read: Reader, path: string, raw: unknown): string | undefined {
  const name = read.string(path, raw);
  if (name === undefined) return undefined;
  const known = BUILT_IN_PROFILES.map((profile) => profile.name);
  if (known.includes(name)) return name;
  const [closest] = suggestNames(name, known, { max: 1 });
  read.problems.push(
    `${path}: unknown profile ${JSON.stringify(name)}${closest ? `; did you mean "${closest}"?` : "."} Known profiles: ${known.join(", ")}.`,
  );
  return undefined;
}

/** `auth.profiles`: the rules that give a session's user a profile by a claim of their token. */
function readProfileRules(read: Reader, raw: unknown): UserProfileRule[] | undefined {
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) {
    read.problems.push(
      `auth.profiles: expected a list of rules like {"claim": "groups", "value": "sre", "profile": "full"}, got ${kind(raw)}.`,
    );
    return undefined;
  }
  const rules: UserProfileRule[] = [];
  for (const [index, entry] of raw.entries()) {
    const path = `auth.profiles[${index}]`;
    if (!isObject(entry)) {
      read.problems.push(
        `${path}: expected an object with "claim", "value" and "profile", got ${kind(entry)}.`,
      );
      continue;
    }
    checkKeys(read, `${path}.`, entry, PROFILE_RULE_KEYS);
    const claim = read.string(`${path}.claim`, entry.claim);
    const value = read.string(`${path}.value`, entry.value);
    const profile = readProfileName(read, `${path}.profile`, entry.profile);
    const missing = PROFILE_RULE_KEYS.filter((key) => entry[key] === undefined);
    if (missing.length > 0) {
      read.problems.push(
        `${path}: needs ${missing.map((key) => `"${key}"`).join(", ")} (e.g. {"claim": "groups", "value": "sre", "profile": "full"}).`,
      );
    } else if (claim === "") {
      read.problems.push(
        `${path}.claim: empty; name a claim of the tokens, e.g. "sub", "groups" or "roles".`,
      );
    }
    if (claim && value !== undefined && profile) rules.push({ claim, value, profile });
  }
  return rules;
}

/** The top-level `auth` block: the identity provider that protects the HTTP gateway. */
export function readGatewayAuth(read: Reader, raw: unknown): GatewayAuthOptions | undefined {
  if (raw === undefined) return undefined;
  if (!isObject(raw)) {
    read.problems.push(`auth: expected an object with "issuer" and "audience", got ${kind(raw)}.`);
    return undefined;
  }
  checkKeys(read, "auth.", raw, GATEWAY_AUTH_KEYS);
  const issuer = read.string("auth.issuer", raw.issuer);
  const audience = read.string("auth.audience", raw.audience);
  if (issuer === undefined || audience === undefined) {
    read.problems.push(
      `auth: needs "issuer" (the identity provider's issuer URL) and "audience" (the aud its tokens carry for this gateway).`,
    );
    return undefined;
  }
  return {
    issuer,
    audience,
    ...optional("scopes", read.strings("auth.scopes", raw.scopes)),
    ...optional("resource", read.string("auth.resource", raw.resource)),
    ...optional("profiles", readProfileRules(read, raw.profiles)),
    ...optional("defaultProfile", readProfileName(read, "auth.defaultProfile", raw.defaultProfile)),
  };
}

const AUTH_KEYS = [
  "grant",
  "clientId",
  "clientSecret",
  "clientMetadataUrl",
  "scope",
  "privateKey",
  "signingAlgorithm",
  "redirectPort",
  "clientName",
] as const;
