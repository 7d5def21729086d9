/** Where a warning goes when the host gives no `onWarning`: the console, marked as toolsift's. */

/** Writes `toolsift: <message>` to `console.warn`. */
export function defaultWarn(message: string): void {
  console.warn(`toolsift: ${message}`);
}
