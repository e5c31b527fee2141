// A flat grey stand-in for the holder's photo, for tests that render a card only to read its text.
import { join } from 'node:path';
import sharp from 'sharp';

/** Writes the portrait into `dir` and returns its path. */
export async function writePlainPortrait(dir: string): Promise<string> {
  const file = join(dir, 'portrait.png');
  await sharp({ create: { width: 300, height: 400, channels: 3, background: '#8a7f76' } })
    .png()
    .toFile(file);
  return file;
}
