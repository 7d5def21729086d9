/** A small, dependency-free string hash for fingerprints (the root entry loads no Node module). */

/** 64-bit FNV-1a-style hash of a string, as 16 hex digits (two 32-bit lanes, different seeds). */
export function hashString(text: string): string {
  let high = 0x811c9dc5;
  let low = 0x01000193 ^ 0x9e3779b9;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    high = Math.imul(high ^ code, 0x01000193);
    low = Math.imul(low ^ code, 0x01000193) ^ (low >>> 15);
  }
  return (high >>> 0).toString(16).padStart(8, "0") + (low >>> 0).toString(16).padStart(8, "0");
}
