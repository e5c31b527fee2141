// The largest file accepted for each part of a chip reading. ICAO 9303 Part 10 sets no upper
// bound; these are generous for what issuers write (an SOD of a few KiB with its DS certificate,
// a DG1 under 100 bytes, a DG2 face of 10–40 KiB, a DG15 key under 1 KiB) and keep hostile input
// from costing memory or hashing time.
export const CHIP_FILE_LIMITS = {
  sod: 64 * 1024,
  dg1: 1024,
  dg2: 512 * 1024,
  dg14: 16 * 1024,
  dg15: 4 * 1024,
  /** The Active Authentication answer: an RSA-4096 signature is 512 bytes. */
  activeAuthenticationSignature: 1024,
} as const;

export type ChipFileName = keyof typeof CHIP_FILE_LIMITS;
