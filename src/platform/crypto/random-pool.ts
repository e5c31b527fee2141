// Random bytes for the request path, drawn from the same CSPRNG as crypto.randomBytes but a few KiB
// at a time: each randomBytes call costs ~10 µs here (a call into OpenSSL's generator), and
// create-session needs four (id, link token, two IVs). Node's own randomUUID batches the same way.
// Every byte is handed out once, and as a copy, so no caller sees or changes another's.
import { randomFillSync } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

/** `length` fresh random bytes (at most the pool's size; larger requests use crypto.randomBytes). */
export function pooledRandomBytes(length: number): Buffer {
  if (length > POOL_BYTES) return randomFillSync(Buffer.alloc(length));
  if (offset + length > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + length));
  // Spent bytes are overwritten at once: the pool never holds a value that was handed out.
  pool.fill(0, offset, offset + length);
  offset += length;
  return bytes;
}
