import type { LoggingMessageNotification } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { UpstreamProgress } from "../relay/call-scope.js";
import { coalesceProgress, PROGRESS_BURST } from "./coalesce-progress.js";
import { LOG_BURST, limitLogMessages } from "./limit-log-messages.js";

describe("flood limits", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("passes a burst of log messages, drops the rest and tells the count a second later", () => {
    vi.useFakeTimers();
    const passed: LoggingMessageNotification["params"][] = [];
    const take = limitLogMessages("noisy", (params) => passed.push(params));
    for (let n = 0; n < LOG_BURST + 50; n += 1) take({ level: "info", data: `line ${n}` });
    expect(passed).toHaveLength(LOG_BURST);
    vi.advanceTimersByTime(1_000);
    expect(passed.at(-1)).toMatchObject({ level: "warning", logger: "toolsift" });
    expect(passed.at(-1)?.data).toMatch(/^Dropped 50 log messages from server "noisy"/);
    // a second later the bucket has refilled: the next line passes again
    take({ level: "info", data: "after" });
    expect(passed.at(-1)?.data).toBe("after");
    expect(passed.filter((params) => params.logger === "toolsift")).toHaveLength(1);
  });

  it("keeps at most one progress report waiting and always delivers the last before the end", () => {
    vi.useFakeTimers();
    const delivered: UpstreamProgress[] = [];
    const progress = coalesceProgress((p) => delivered.push(p));
    for (let step = 1; step <= 10_000; step += 1) progress.report({ progress: step });
    expect(delivered).toHaveLength(PROGRESS_BURST);
    progress.flush();
    expect(delivered).toHaveLength(PROGRESS_BURST + 1);
    expect(delivered.at(-1)?.progress).toBe(10_000);
    // nothing is left to send after the flush
    vi.advanceTimersByTime(10_000);
    expect(delivered).toHaveLength(PROGRESS_BURST + 1);
  });
});
