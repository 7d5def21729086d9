import { describe, expect, it } from "vitest";
import { chooseUserProfile } from "./user-profiles.js";

const rules = [
  { claim: "groups", value: "sre", profile: "full" },
  { claim: "realm_access.roles", value: "dev", profile: "coding" },
  { claim: "https://example.com/teams", value: "support", profile: "minimal" },
  { claim: "sub", value: "bot-7", profile: "coding" },
];

describe("chooseUserProfile", () => {
  it("takes the first rule whose claim is the value or a list holding it", () => {
    expect(chooseUserProfile({ sub: "a", groups: ["x", "sre"] }, rules)).toEqual({
      profile: "full",
      rule: 'auth.profiles[0] (groups has "sre")',
    });
    expect(chooseUserProfile({ sub: "a", groups: "sre" }, rules)?.profile).toBe("full");
    // a nested claim by its dotted path; a claim named like a URL (dots included) as it is
    expect(chooseUserProfile({ realm_access: { roles: ["dev"] } }, rules)?.profile).toBe("coding");
    expect(chooseUserProfile({ "https://example.com/teams": ["support"] }, rules)?.rule).toBe(
      'auth.profiles[2] (https://example.com/teams has "support")',
    );
    expect(chooseUserProfile({ sub: "bot-7" }, rules)?.rule).toBe(
      'auth.profiles[3] (sub is "bot-7")',
    );
  });

  it("falls back to the default, or to none (the gateway's policy alone)", () => {
    expect(chooseUserProfile({ sub: "a", groups: ["other"] }, rules, "minimal")).toEqual({
      profile: "minimal",
      rule: "auth.defaultProfile (no auth.profiles rule matched)",
    });
    expect(chooseUserProfile({ sub: "a", groups: { sre: true } }, rules)).toBeUndefined();
  });
});
