/** Where the CLI writes; tests pass a capturing implementation. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

/** Writes to the real process streams. */
export const processIO: CliIO = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};
