import { describe, expect, it } from "vitest";
import { errorText } from "./error-text.js";

describe("errorText", () => {
  it("gives an Error's message, else its name, else the value as text", () => {
    expect(errorText(new Error("disk full"))).toBe("disk full");
    expect(errorText(new TypeError(""))).toBe("TypeError");
    expect(errorText("plain")).toBe("plain");
    expect(errorText(42)).toBe("42");
    expect(errorText(undefined)).toBe("undefined");
  });

  it("does not throw for values whose text throws", () => {
    const getter = new Error("x");
    Object.defineProperty(getter, "message", {
      get() {
        throw new Error("boom");
      },
    });
    const toStringThrows = {
      toString() {
        throw new Error("boom");
      },
    };
    expect(errorText(getter)).toBe("an unreadable error");
    expect(errorText(toStringThrows)).toBe("an unreadable error");
    expect(errorText(Object.create(null))).toBe("an unreadable error");
  });
});
