// Scoring OCR output against the text that was rendered: shared by the OCR tests and bench/ocr.

/** Edit distance, for a character accuracy figure that tolerates one misread glyph. */
export function levenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) {
      row[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1),
      );
    }
    prev = row;
  }
  return prev[y.length] ?? 0;
}

/** Text without any white space (Tesseract spaces CJK text unpredictably). */
export const compact = (s: string) => s.replace(/\s+/gu, '');
