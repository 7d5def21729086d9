/** The text of a thrown value, for messages and logs: never throws, whatever was thrown. */

/**
 * The message of an `Error` (its name when the message is empty), else the value as a string.
 * A throwing `message` getter or `toString`, or an object without a prototype, gives a fixed
 * phrase instead of a second error: this runs inside `catch` blocks, where a throw escapes.
 */
export function errorText(error: unknown): string {
  try {
    if (error instanceof Error) return String(error.message) || error.name;
    return String(error);
  } catch {
    return "an unreadable error";
  }
}
