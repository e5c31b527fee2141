// The light of the page's screen-light challenge (liveness/screen-light.ts) on a filmed face: the
// phone's screen, a hand's length from the face, adds its colour to the room's light. How much is
// the screen's illuminance over the room's — a tenth to a third indoors, a few hundredths by a
// window — drawn per capture. The light falls off away from the face (the background is farther
// from the screen), and brightness is kept: what the screen changes is the skin's colour.
import type { RgbImage } from '../synth/photograph-document.ts';
import type { Random } from '../synth/random.ts';

/** The screen's light over the room's, log-uniform from daylight to a dim room. */
export function drawScreenLightStrength(random: Random): number {
  return Math.round(Math.exp(random.range(Math.log(0.03), Math.log(0.3))) * 1000) / 1000;
}

/** `image` lit by a screen showing `rgb` at `strength`, strongest at the face's centre (fractions). */
export function reflectScreenLight(
  image: RgbImage,
  rgb: readonly [number, number, number],
  strength: number,
  centre: readonly [number, number],
): RgbImage {
  const { width, height } = image;
  const out = Buffer.alloc(image.data.length);
  const grey = (rgb[0] + rgb[1] + rgb[2]) / 3 / 255;
  const [cx, cy] = [centre[0] * width, centre[1] * height];
  const sigma2 = 2 * (0.35 * width) ** 2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const w = strength * Math.exp(-((x - cx) ** 2 + (y - cy) ** 2) / sigma2);
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const gain = (1 + (w * (rgb[c] as number)) / 255) / (1 + w * grey);
        out[i + c] = Math.min(255, Math.round((image.data[i + c] as number) * gain));
      }
    }
  }
  return { data: out, width, height };
}
