/** Bounded nearest-name selection and a cheap edit-distance lower bound, for no-match suggestions. */

// per-character-class counts of the probe and of the candidate; reused, so a scan allocates nothing
const probeCounts = new Int32Array(128);
const usedCounts = new Int32Array(128);
let probeText = "";

function charClass(code: number): number {
  return (code >= 65 && code <= 90 ? code + 32 : code) & 127;
}

/** Bit 31 of a letter mask: the text has non-ASCII characters, so the mask bounds nothing. */
export const UNBOUNDED = 1 << 31;

/**
 * Which character classes occur in `text[start, end)`, case-folded: letters a–z (bits 0–25),
 * digits (26–29), other ASCII (30); bit 31 marks non-ASCII text.
 */
export function letterMask(text: string, start = 0, end = text.length): number {
  let mask = 0;
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index) | 32;
    if (code >= 97 && code <= 122) mask |= 1 << (code - 97);
    else if (code >= 48 && code <= 57) mask |= 1 << (26 + (code % 4));
    else if (text.charCodeAt(index) > 127) mask |= UNBOUNDED;
    else mask |= 1 << 30;
  }
  return mask;
}

/** A lower bound on the edit distance from two letter masks (one edit flips at most two classes). */
export function maskDistance(a: number, b: number): number {
  if (((a | b) & UNBOUNDED) !== 0) return 0;
  let rest = (a ^ b) >>> 0;
  rest -= (rest >>> 1) & 0x55555555;
  rest = (rest & 0x33333333) + ((rest >>> 2) & 0x33333333);
  rest = (rest + (rest >>> 4)) & 0x0f0f0f0f;
  return Math.ceil(((rest * 0x01010101) >>> 24) / 2);
}

/** Sets the probe that `bagDistance` compares against (lowercase). */
export function setBagProbe(probe: string): void {
  if (probe === probeText) return;
  probeCounts.fill(0);
  for (let index = 0; index < probe.length; index += 1) {
    const slot = charClass(probe.charCodeAt(index));
    probeCounts[slot] = (probeCounts[slot] as number) + 1;
  }
  probeText = probe;
}

/**
 * A lower bound on the edit distance between the probe and `text[start, end)` compared
 * case-insensitively: the letters one has beyond the other (one edit changes at most one on each
 * side). Text with non-ASCII characters gets 0 (no bound), since lowercasing may change it.
 */
export function bagDistance(text: string, start: number, end: number): number {
  let extra = 0;
  let bound = 0;
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code > 127) {
      bound = -1;
      break;
    }
    const slot = charClass(code);
    if ((usedCounts[slot] as number) < (probeCounts[slot] as number)) {
      usedCounts[slot] = (usedCounts[slot] as number) + 1;
    } else extra += 1;
  }
  for (let index = start; index < end; index += 1)
    usedCounts[charClass(text.charCodeAt(index))] = 0;
  if (bound < 0) return 0;
  const missing = probeText.length - (end - start - extra);
  return Math.max(extra, missing);
}

/** Keeps the `count` nearest names offered (distance ascending, then name), each at its best distance. */
export class NearestNames {
  private readonly names: string[] = [];
  private readonly distances: number[] = [];

  constructor(private readonly count: number) {}

  /** The distance a new name must beat (or tie with a smaller name) to enter. */
  get worst(): number {
    return this.names.length < this.count
      ? Number.POSITIVE_INFINITY
      : (this.distances[this.count - 1] as number);
  }

  /** True when a name at this distance could enter (it beats the current last one). */
  admits(name: string, distance: number): boolean {
    if (this.names.length < this.count) return true;
    const worst = this.distances[this.count - 1] as number;
    return (
      distance < worst || (distance === worst && name < (this.names[this.count - 1] as string))
    );
  }

  /** Offers one name at a distance; `accept` (when given) is asked only if it could enter. */
  offer(name: string, distance: number, accept?: (name: string) => boolean): void {
    if (!this.admits(name, distance)) return;
    if (accept && !accept(name)) return;
    const known = this.names.indexOf(name);
    if (known >= 0) {
      if ((this.distances[known] as number) <= distance) return;
      this.names.splice(known, 1);
      this.distances.splice(known, 1);
    } else if (this.names.length >= this.count) {
      const last = this.count - 1;
      const worst = this.distances[last] as number;
      if (distance > worst || (distance === worst && name >= (this.names[last] as string))) return;
      this.names.pop();
      this.distances.pop();
    }
    let position = this.names.length;
    while (position > 0) {
      const before = this.distances[position - 1] as number;
      if (before < distance || (before === distance && (this.names[position - 1] as string) < name))
        break;
      position -= 1;
    }
    this.names.splice(position, 0, name);
    this.distances.splice(position, 0, distance);
  }

  /** The names kept, nearest first. */
  result(): string[] {
    return [...this.names];
  }
}
