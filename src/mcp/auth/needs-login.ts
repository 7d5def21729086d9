/** The error that says a server needs a user to log in, thrown inside the SDK's auth flow and
 * found again in the causes of what the transport reports. */
/** Thrown (inside the SDK's auth flow) when a server needs a user to log in. */
export class NeedsLoginError extends Error {
  readonly code = "needs_login";
  constructor(
    readonly server: string,
    readonly command: string,
  ) {
    super(`Server "${server}" needs a login: run ${command}, then try again.`);
  }
}

/** True when `error` or one of its causes is a `NeedsLoginError`. */
export function findNeedsLogin(error: unknown): NeedsLoginError | undefined {
  for (let current = error, depth = 0; current && depth < 8; depth += 1) {
    if (current instanceof NeedsLoginError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
