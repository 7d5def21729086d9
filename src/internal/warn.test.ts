import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultWarn } from "./warn.js";

describe("defaultWarn", () => {
  afterEach(() => vi.restoreAllMocks());

  it("marks the message as toolsift's on the console", () => {
    const spy = vi.spyOn(console, "warn").mockImplementation(() => {});
    defaultWarn("two tools share a name");
    expect(spy).toHaveBeenCalledWith("toolsift: two tools share a name");
  });
});
