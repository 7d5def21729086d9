/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions) between two
 * strings, or `bound + 1` as soon as it is known to exceed `bound`, so scanning many names for
 * "did you mean" stays cheap. Case-sensitive: lower-case both sides for a case-insensitive match.
 */
export function boundedEditDistance(a: string, b: string, bound: number): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  const width = b.length + 1;
  let beforePrevious = new Int32Array(width);
  let previous = new Int32Array(width);
  let current = new Int32Array(width);
  for (let column = 0; column < width; column += 1) previous[column] = column;
  for (let row = 1; row <= a.length; row += 1) {
    current[0] = row;
    let rowMin = row;
    for (let column = 1; column < width; column += 1) {
      const cost = a.charCodeAt(row - 1) === b.charCodeAt(column - 1) ? 0 : 1;
      let value = Math.min(
        (previous[column] ?? 0) + 1,
        (current[column - 1] ?? 0) + 1,
        (previous[column - 1] ?? 0) + cost,
      );
      const swapped =
        row > 1 &&
        column > 1 &&
        a.charCodeAt(row - 1) === b.charCodeAt(column - 2) &&
        a.charCodeAt(row - 2) === b.charCodeAt(column - 1);
      if (swapped) value = Math.min(value, (beforePrevious[column - 2] ?? 0) + 1);
      current[column] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > bound) return bound + 1;
    [beforePrevious, previous, current] = [previous, current, beforePrevious];
  }
  const result = previous[b.length] ?? bound + 1;
  return result > bound ? bound + 1 : result;
}
