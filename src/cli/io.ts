/** Where the CLI reads and writes; tests pass a capturing implementation. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  /** stdout is a terminal: aligned tables and (unless NO_COLOR) colour. Absent: plain text. */
  stdoutTTY?: boolean;
  /** stderr is a terminal: progress lines for slow work are shown there. */
  stderrTTY?: boolean;
  /** Terminal width, for cutting long descriptions in tables. */
  columns?: number;
  /** The environment (NO_COLOR, FORCE_COLOR, TERM); default: none of them set. */
  env?: Readonly<Record<string, string | undefined>>;
  /** All of stdin as text, for `--catalog -`. */
  readStdin?(): Promise<string>;
}

async function readProcessStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The real process streams. */
export const processIO: CliIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdoutTTY: process.stdout.isTTY === true,
  stderrTTY: process.stderr.isTTY === true,
  ...(process.stdout.columns ? { columns: process.stdout.columns } : {}),
  env: process.env,
  readStdin: readProcessStdin,
};
