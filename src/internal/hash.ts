/** Small, dependency-free string hashes (the root entry loads no Node module, so no node:crypto). */

/** 32-bit FNV-1a of a string's UTF-16 code units, as an unsigned integer. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  }
  return hash >>> 0;
}

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
