// Connected regions of a mask: the OCR check's card segmentation keeps the largest, the document
// spoof check looks for a screen's bezel among the dark ones.

/**
 * The 4-connected regions of the set pixels of `mask` (width × height, row-major), each as the
 * indices of its pixels, in scan order of their first pixel.
 */
export function* connectedComponents(mask: Uint8Array, width: number, height: number): Generator<number[]> {
  const size = width * height;
  const seen = new Uint8Array(size);
  const stack = new Int32Array(size);
  for (let start = 0; start < size; start++) {
    if (!mask[start] || seen[start]) continue;
    const pixels: number[] = [];
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top > 0) {
      const p = stack[--top] as number;
      pixels.push(p);
      const x = p % width;
      const neighbours = [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width];
      for (const q of neighbours) {
        if (q < 0 || q >= size || !mask[q] || seen[q]) continue;
        seen[q] = 1;
        stack[top++] = q;
      }
    }
    yield pixels;
  }
}
