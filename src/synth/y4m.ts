// YUV4MPEG2 4:2:0 video, the format Chromium's fake camera plays (--use-file-for-fake-video-capture).
import type { RgbImage } from './photograph-document.ts';

export type Y4mFormat = { width: number; height: number; fps: number };

/** Stream header: C420jpeg = full-range BT.601 chroma sited between pixels, what JPEG uses. */
export function y4mHeader({ width, height, fps }: Y4mFormat): Buffer {
  return Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`, 'ascii');
}

/** One frame: 'FRAME\n', the Y plane, then U and V at half resolution (2×2 averages). */
export function y4mFrame(image: RgbImage): Buffer {
  const { width, height, data } = image;
  if (width % 2 || height % 2) throw new Error('y4m 4:2:0 needs even width and height');
  const tag = Buffer.from('FRAME\n', 'ascii');
  const ySize = width * height;
  const cSize = ySize / 4;
  const out = Buffer.alloc(tag.length + ySize + 2 * cSize);
  tag.copy(out, 0);
  const yOff = tag.length;
  const uOff = yOff + ySize;
  const vOff = uOff + cSize;
  const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));
  for (let i = 0; i < ySize; i++) {
    const r = data[i * 3] ?? 0;
    const g = data[i * 3 + 1] ?? 0;
    const b = data[i * 3 + 2] ?? 0;
    out[yOff + i] = clamp(0.299 * r + 0.587 * g + 0.114 * b);
  }
  for (let cy = 0; cy < height / 2; cy++) {
    for (let cx = 0; cx < width / 2; cx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let k = 0; k < 4; k++) {
        const p = ((cy * 2 + (k >> 1)) * width + cx * 2 + (k & 1)) * 3;
        r += data[p] ?? 0;
        g += data[p + 1] ?? 0;
        b += data[p + 2] ?? 0;
      }
      r /= 4;
      g /= 4;
      b /= 4;
      const c = cy * (width / 2) + cx;
      out[uOff + c] = clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
      out[vOff + c] = clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
  }
  return out;
}

/** Parse a y4m header line (for tests and readers): width, height, fps, colour space, frame count. */
export function readY4mInfo(file: Buffer): {
  width: number;
  height: number;
  fps: number;
  colourSpace: string;
  frames: number;
} {
  const end = file.indexOf(0x0a);
  const header = file.subarray(0, end).toString('ascii');
  if (!header.startsWith('YUV4MPEG2 ')) throw new Error('not a YUV4MPEG2 stream');
  const fields = new Map(
    header
      .split(' ')
      .slice(1)
      .map((f) => [f[0] ?? '', f.slice(1)]),
  );
  const width = Number(fields.get('W'));
  const height = Number(fields.get('H'));
  const [num, den] = (fields.get('F') ?? '0:1').split(':').map(Number);
  const frameBytes = 6 + width * height * 1.5;
  const body = file.length - end - 1;
  return {
    width,
    height,
    fps: (num ?? 0) / (den ?? 1),
    colourSpace: fields.get('C') ?? '420jpeg',
    frames: body / frameBytes,
  };
}
