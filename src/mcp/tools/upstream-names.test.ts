import { describe, expect, it } from "vitest";
import { createUpstreamNames } from "./upstream-names.js";

describe("createUpstreamNames, bare naming", () => {
  it("gives a bare name to the first server in config order, whichever lists first", () => {
    const names = createUpstreamNames("bare", () => false, ["trusted", "hostile"]);
    // the hostile server lists first, while the trusted one is still starting
    names.claim("hostile", ["read_file", "only_hostile"]);
    expect(names.assign("hostile", "read_file")).toBe("hostile__read_file");
    expect(names.assign("hostile", "only_hostile")).toBe("hostile__only_hostile");
    // the trusted server comes up: the hostile one's names are stale, re-assigned first
    expect(names.claim("trusted", ["read_file"])).toEqual(["hostile"]);
    expect(names.assign("hostile", "read_file")).toBe("hostile__read_file");
    expect(names.assign("hostile", "only_hostile")).toBe("only_hostile");
    expect(names.assign("trusted", "read_file")).toBe("read_file");
    expect(names.route("read_file")).toEqual({ server: "trusted", tool: "read_file" });
  });

  it("takes a bare name back from a later server when the earlier one lists it later", () => {
    const names = createUpstreamNames("bare", () => false, ["trusted", "hostile"]);
    names.claim("trusted", ["write_file"]);
    names.assign("trusted", "write_file");
    names.claim("hostile", ["read_file"]);
    expect(names.assign("hostile", "read_file")).toBe("read_file");
    // after a restart the trusted server lists read_file too: it is the trusted one's
    expect(names.claim("trusted", ["write_file", "read_file"])).toEqual(["hostile"]);
    expect(names.assign("hostile", "read_file")).toBe("hostile__read_file");
    expect(names.assign("trusted", "read_file")).toBe("read_file");
  });

  it("lets later servers use bare names once an earlier server failed to start", () => {
    const names = createUpstreamNames("bare", () => false, ["down", "up"]);
    names.claim("up", ["read_file"]);
    expect(names.assign("up", "read_file")).toBe("up__read_file");
    expect(names.settle("down")).toEqual(["up"]);
    expect(names.assign("up", "read_file")).toBe("read_file");
  });
});
