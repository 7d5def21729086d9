/**
 * The policy of a gateway session whose user's token chose a profile (`auth.profiles`): the turn
 * visibility its plans, searches and calls use (on top of the gateway's own policy, which still
 * applies to everyone), and the explanation a call outside that profile gets.
 */
import type { TurnVisibility } from "../../disclosure/index.js";
import { ToolsiftError } from "../../errors.js";
import { didYouMean } from "../../internal/index.js";
import { createPolicy, type Policy } from "../../policy/index.js";
import type { GatewayAuthOptions } from "../auth/bearer-guard.js";
import type { SessionProfile } from "../auth/user-profiles.js";
import type { MCPToolSift } from "../create-mcp-toolsift.js";

/** One policy per profile name and sift, rebuilt when the sift's profiles change. */
const policies = new WeakMap<MCPToolSift, Map<string, { version: number; policy: Policy }>>();

function profilePolicy(sift: MCPToolSift, name: string): Policy {
  let byName = policies.get(sift);
  if (!byName) {
    byName = new Map();
    policies.set(sift, byName);
  }
  const kept = byName.get(name);
  if (kept && kept.version === sift.policy.version) return kept.policy;
  // the sift's custom profiles too, so a user's profile may be any profile the gateway knows
  const profiles = sift.policy
    .profiles()
    .filter((profile) => !profile.builtIn)
    .map(({ builtIn: _, ...definition }) => definition);
  const policy = createPolicy({ profile: name, profiles, catalog: sift.catalog });
  byName.set(name, { version: sift.policy.version, policy });
  return policy;
}

/** Throws `invalid_option` when a profile the auth settings name is not one the gateway knows. */
export function checkSessionProfiles(sift: MCPToolSift, auth: GatewayAuthOptions): void {
  const known = sift.policy.profiles().map((profile) => profile.name);
  const named = [
    ...(auth.profiles ?? []).map((rule, index) => [
      `auth.profiles[${index}].profile`,
      rule.profile,
    ]),
    ...(auth.defaultProfile === undefined ? [] : [["auth.defaultProfile", auth.defaultProfile]]),
  ];
  for (const [where, name = ""] of named) {
    if (known.includes(name)) continue;
    throw new ToolsiftError(
      "invalid_option",
      `${where} names profile ${JSON.stringify(name)}, which the gateway does not know.${didYouMean(name, known)} Known profiles: ${known.join(", ")}.`,
    );
  }
}

/** The visibility of a session with `profile`; undefined without one (the gateway's policy). */
export function profileVisibility(
  sift: MCPToolSift,
  profile: SessionProfile | undefined,
): TurnVisibility | undefined {
  if (profile === undefined) return undefined;
  const policy = profilePolicy(sift, profile.profile);
  return {
    key: `profile:${profile.profile}@${policy.version}`,
    isVisible: (tool) => policy.isAllowed(tool),
  };
}

/**
 * Why a call is refused in a session with `profile`: the tool it names (directly or through the
 * call meta tool) is one the gateway's policy shows but the profile hides. Undefined when the
 * call may go on; a name unknown to the gateway is answered by dispatch, as for every session.
 */
export function profileRefusal(
  sift: MCPToolSift,
  session: { profile: SessionProfile | undefined; user: string | undefined },
  name: string,
  args: Record<string, unknown> | undefined,
): string | undefined {
  const { profile, user } = session;
  if (profile === undefined) return undefined;
  const inner = name === sift.disclosure.metaToolNames.call ? args?.name : undefined;
  const target = sift.catalog.has(name) ? name : typeof inner === "string" ? inner : undefined;
  if (target === undefined || !sift.catalog.has(target) || !sift.policy.isAllowed(target)) {
    return undefined;
  }
  const policy = profilePolicy(sift, profile.profile);
  if (policy.isAllowed(target)) return undefined;
  const who = user === undefined ? "this session's user" : `user ${JSON.stringify(user)}`;
  return `Tool "${target}" is not available to ${who}: the session's profile is "${profile.profile}" (chosen by ${profile.rule}). ${policy.explain(target).reason} Ask the gateway's operator for a profile that includes it, or use another tool.`;
}
