// Edit distance for short strings: fuzzy blacklist matching, telling an OCR slip from a different
// value, and an address against the document's OCR'd address line.

/** Levenshtein distance, stopping early once it exceeds `limit` (names and numbers are short). */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > limit) return limit + 1;
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    if (Math.min(...current) > limit) return limit + 1;
    previous = current;
  }
  return previous[y.length]!;
}

/** Fewest edits turning `part` into some substring of `whole` (semi-global: `whole` may begin and end anywhere). */
export function editsToSubstring(part: string, whole: string): number {
  const p = [...part];
  const w = [...whole];
  // prev[j]: edits to turn p[0..i) into a substring of w ending at j.
  let prev = new Array<number>(w.length + 1).fill(0);
  for (let i = 1; i <= p.length; i++) {
    const row = new Array<number>(w.length + 1);
    row[0] = i;
    for (let j = 1; j <= w.length; j++) {
      const substitute = (prev[j - 1] as number) + (p[i - 1] === w[j - 1] ? 0 : 1);
      row[j] = Math.min(substitute, (prev[j] as number) + 1, (row[j - 1] as number) + 1);
    }
    prev = row;
  }
  return Math.min(...prev);
}
