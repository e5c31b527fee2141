// Pictures the face nets read parts of, kept as plain pixels outside tfjs. tfjs-wasm's heap grows to
// the largest set of tensors it ever held and never gives memory back, so the whole picture is
// never one tensor: the detector gets its 416-px input computed here (exactly what face-api makes
// of a whole-picture tensor), and the landmark, recognition and age-gender nets get tensors of the
// face crops only. A picture with a border of one picture width on each side (face-api.ts
// `borders`) is 3x the size each way: as one tensor a 1024-px photo became 3072x2772 (102 MB as
// int32, three times that while face-api padded and resized it), and a worker's memory stayed
// that much higher for good.

/** RGB pixels, read a rectangle at a time. */
export interface Picture {
  readonly width: number;
  readonly height: number;
  /** Channel `c` of the pixel at (`x`, `y`), which lies inside the picture. */
  at(x: number, y: number, c: number): number;
  /** The pixels of a rectangle inside the picture, row by row, 3 values each. */
  read(x0: number, y0: number, width: number, height: number): Uint8Array;
}

/** A picture over interleaved RGB bytes (sharp's `.raw()` after removeAlpha). */
export function rgbPicture(data: Uint8Array, width: number, height: number): Picture {
  if (data.length < width * height * 3) throw new Error('rgbPicture: fewer bytes than width x height x 3');
  return {
    width,
    height,
    at: (x, y, c) => data[(y * width + x) * 3 + c]!,
    read(x0, y0, w, h) {
      checkRect(this, x0, y0, w, h);
      if (x0 === 0 && w === width) return data.subarray(y0 * width * 3, (y0 + h) * width * 3);
      const out = new Uint8Array(w * h * 3);
      for (let y = 0; y < h; y++) {
        const from = ((y0 + y) * width + x0) * 3;
        out.set(data.subarray(from, from + w * 3), y * w * 3);
      }
      return out;
    },
  };
}

/** Neutral grey of a 'grey' border (sharp's `#808080`). */
const GREY = 128;

/**
 * `picture` with a border of `pad` pixels on each side: neutral grey, or the edge pixels repeated
 * outwards (what sharp's `extend` makes with `extendWith: 'copy'`), computed as read, never stored.
 */
export function borderedPicture(picture: Picture, pad: number, fill: 'grey' | 'copy'): Picture {
  const { width, height } = picture;
  const clamp = (v: number, max: number) => (v < 0 ? 0 : v >= max ? max - 1 : v);
  const bordered: Picture = {
    width: width + 2 * pad,
    height: height + 2 * pad,
    at(x, y, c) {
      const sx = x - pad;
      const sy = y - pad;
      if (fill === 'grey' && (sx < 0 || sy < 0 || sx >= width || sy >= height)) return GREY;
      return picture.at(clamp(sx, width), clamp(sy, height), c);
    },
    read(x0, y0, w, h) {
      checkRect(bordered, x0, y0, w, h);
      const out = new Uint8Array(w * h * 3);
      for (let y = 0; y < h; y++) {
        const sy = y0 + y - pad;
        const rowOutside = sy < 0 || sy >= height;
        for (let x = 0; x < w; x++) {
          const sx = x0 + x - pad;
          const o = (y * w + x) * 3;
          if (fill === 'grey' && (rowOutside || sx < 0 || sx >= width)) {
            out[o] = GREY;
            out[o + 1] = GREY;
            out[o + 2] = GREY;
          } else {
            const px = clamp(sx, width);
            const py = clamp(sy, height);
            out[o] = picture.at(px, py, 0);
            out[o + 1] = picture.at(px, py, 1);
            out[o + 2] = picture.at(px, py, 2);
          }
        }
      }
      return out;
    },
  };
  return bordered;
}

function checkRect(picture: Picture, x0: number, y0: number, w: number, h: number): void {
  if (
    !Number.isInteger(x0) ||
    !Number.isInteger(y0) ||
    !Number.isInteger(w) ||
    !Number.isInteger(h) ||
    x0 < 0 ||
    y0 < 0 ||
    w < 0 ||
    h < 0 ||
    x0 + w > picture.width ||
    y0 + h > picture.height
  ) {
    throw new Error(
      `rectangle ${x0},${y0} ${w}x${h} is not inside the ${picture.width}x${picture.height} picture`,
    );
  }
}

const f32 = Math.fround;

/**
 * What face-api's detectors feed their net for a whole-picture tensor (NetInput.toBatchTensor with
 * corners not centred): the picture padded with zeros at the right or bottom to a square, then
 * `tf.image.resizeBilinear(…, [size, size], false, false)` as tfjs-backend-wasm computes it
 * (XNNPACK's TensorFlow legacy mode: source = output index x (side / size) in float32, weights and
 * the two linear steps in float32). The float32 values are the same bit for bit
 * (test/platform/ml/face-picture.test.ts compares them with tfjs), so detections are unchanged,
 * while only size x size x 3 values are made.
 */
export function detectorInput(picture: Picture, size: number): Float32Array {
  const { width, height } = picture;
  const side = Math.max(width, height);
  const scale = f32(side / size);
  const at = (x: number, y: number, c: number) => (x < width && y < height ? picture.at(x, y, c) : 0);
  const out = new Float32Array(size * size * 3);
  const xs = Array.from({ length: size }, (_, i) => {
    const source = f32(i * scale);
    const left = Math.trunc(source);
    return { left, right: Math.min(left + 1, side - 1), alpha: f32(source - left) };
  });
  for (let oy = 0; oy < size; oy++) {
    const source = f32(oy * scale);
    const top = Math.trunc(source);
    const bottom = Math.min(top + 1, side - 1);
    const alphaY = f32(source - top);
    for (let ox = 0; ox < size; ox++) {
      const { left, right, alpha } = xs[ox]!;
      for (let c = 0; c < 3; c++) {
        const tl = at(left, top, c);
        const tr = at(right, top, c);
        const bl = at(left, bottom, c);
        const br = at(right, bottom, c);
        const t = f32(tl + f32(f32(tr - tl) * alpha));
        const b = f32(bl + f32(f32(br - bl) * alpha));
        out[(oy * size + ox) * 3 + c] = f32(t + f32(f32(b - t) * alphaY));
      }
    }
  }
  return out;
}
