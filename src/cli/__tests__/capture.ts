import type { CliIO } from "../io.js";

/** A CliIO that keeps what was written; `options` set the terminal flags, env and stdin. */
export function capture(
  options: Omit<CliIO, "stdout" | "stderr"> = {},
): CliIO & { out: string; err: string } {
  const io = {
    ...options,
    out: "",
    err: "",
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
  };
  return io;
}
