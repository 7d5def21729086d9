/**
 * Which policy profile a gateway session gets from its user's token: the config's `auth.profiles`
 * rules, read in order (the first whose claim holds the value wins), else `auth.defaultProfile`.
 * Chosen once, when the session opens: a token with other claims gets its profile on its next
 * session. The claim values are read here and never stored or shown, only the rule that matched.
 */

/** One rule: sessions whose token's `claim` is `value` (or a list holding it) get `profile`. */
export interface UserProfileRule {
  /** A claim name (`sub`, `groups`, `roles`, `https://example.com/groups`); a dotted name
   * (`realm_access.roles`) reads a nested claim when no claim has that exact name. */
  claim: string;
  value: string;
  /** A policy profile name (`full`, `coding`, `minimal`). */
  profile: string;
}

/** The profile a session got, and the rule that chose it (for explanations). */
export interface SessionProfile {
  profile: string;
  /** E.g. `auth.profiles[1] (groups has "support")` or `auth.defaultProfile`. */
  rule: string;
}

/** The claim named `name`: the exact name first, then a dotted path into nested objects. */
function claimOf(claims: Record<string, unknown>, name: string): unknown {
  if (name in claims) return claims[name];
  let current: unknown = claims;
  for (const part of name.split(".")) {
    if (typeof current !== "object" || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function holds(claim: unknown, value: string): boolean {
  if (typeof claim === "string") return claim === value;
  if (typeof claim === "number" || typeof claim === "boolean") return String(claim) === value;
  return Array.isArray(claim) && claim.some((item) => holds(item, value));
}

/** The session profile for `claims`; undefined when no rule matches and there is no default (the
 * gateway's own policy alone applies). */
export function chooseUserProfile(
  claims: Record<string, unknown>,
  rules: readonly UserProfileRule[] = [],
  defaultProfile?: string,
): SessionProfile | undefined {
  for (const [index, rule] of rules.entries()) {
    if (holds(claimOf(claims, rule.claim), rule.value)) {
      const verb = rule.claim === "sub" ? "is" : "has";
      return {
        profile: rule.profile,
        rule: `auth.profiles[${index}] (${rule.claim} ${verb} ${JSON.stringify(rule.value)})`,
      };
    }
  }
  return defaultProfile === undefined
    ? undefined
    : { profile: defaultProfile, rule: "auth.defaultProfile (no auth.profiles rule matched)" };
}
