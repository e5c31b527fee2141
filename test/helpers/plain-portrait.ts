// A flat grey stand-in for the holder's photo, for tests that render a card only to read its text.
import sharp from 'sharp';

/** The portrait as a PNG in memory (the synth's renderers take it as they take a file). */
export function plainPortrait(): Promise<Buffer> {
  return sharp({ create: { width: 300, height: 400, channels: 3, background: '#8a7f76' } })
    .png()
    .toBuffer();
}
