// A small radix-2 FFT, enough for the power spectra of the spoof cues (docs/spoof-checks.md:
// frequency-domain moiré and pixel-grid cues). No dependency: a 128×128 transform is a few
// hundred microseconds in plain JavaScript.

/** In-place complex FFT of length n (a power of two). */
export function fftInPlace(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  if (n & (n - 1)) throw new Error(`FFT length ${n} is not a power of two`);
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const tr = re[i] as number;
      re[i] = re[j] as number;
      re[j] = tr;
      const ti = im[i] as number;
      im[i] = im[j] as number;
      im[j] = ti;
    }
  }
  const [twiddleRe, twiddleIm] = twiddlesFor(n);
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    for (let start = 0; start < n; start += len) {
      for (let k = 0; k < half; k++) {
        const a = start + k;
        const b = a + half;
        const cr = twiddleRe[half + k] as number;
        const ci = twiddleIm[half + k] as number;
        const br = (re[b] as number) * cr - (im[b] as number) * ci;
        const bi = (re[b] as number) * ci + (im[b] as number) * cr;
        re[b] = (re[a] as number) - br;
        im[b] = (im[a] as number) - bi;
        re[a] = (re[a] as number) + br;
        im[a] = (im[a] as number) + bi;
      }
    }
  }
}

const twiddles = new Map<number, [Float64Array, Float64Array]>();

/**
 * The twiddle factors of every stage of a length-n transform, stage `len` at [len / 2, len): each
 * stage's powers of its root taken by repeated multiplication, as the butterflies once did for
 * every block (so the spectra do not move by a rounding).
 */
function twiddlesFor(n: number): [Float64Array, Float64Array] {
  let table = twiddles.get(n);
  if (table) return table;
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let len = 2; len <= n; len <<= 1) {
    const angle = (-2 * Math.PI) / len;
    const wr = Math.cos(angle);
    const wi = Math.sin(angle);
    let cr = 1;
    let ci = 0;
    const half = len >> 1;
    for (let k = 0; k < half; k++) {
      re[half + k] = cr;
      im[half + k] = ci;
      const nr = cr * wr - ci * wi;
      ci = cr * wi + ci * wr;
      cr = nr;
    }
  }
  table = [re, im];
  twiddles.set(n, table);
  return table;
}

/** Power spectrum |F|² of a real n×n tile (row-major), without shifting (DC at index 0). */
export function powerSpectrum2d(tile: Float64Array, n: number): Float64Array {
  const re = new Float64Array(tile);
  const im = new Float64Array(n * n);
  const rowRe = new Float64Array(n);
  const rowIm = new Float64Array(n);
  for (let y = 0; y < n; y++) {
    rowRe.set(re.subarray(y * n, y * n + n));
    rowIm.fill(0);
    fftInPlace(rowRe, rowIm);
    re.set(rowRe, y * n);
    im.set(rowIm, y * n);
  }
  for (let x = 0; x < n; x++) {
    for (let y = 0; y < n; y++) {
      rowRe[y] = re[y * n + x] as number;
      rowIm[y] = im[y * n + x] as number;
    }
    fftInPlace(rowRe, rowIm);
    for (let y = 0; y < n; y++) {
      re[y * n + x] = rowRe[y] as number;
      im[y * n + x] = rowIm[y] as number;
    }
  }
  const power = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) power[i] = (re[i] as number) ** 2 + (im[i] as number) ** 2;
  return power;
}
