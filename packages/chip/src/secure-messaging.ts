// ICAO 9303 Part 11 §9.8 secure messaging with 3DES session keys (the keys BAC establishes): the
// command's data encrypted in DO'87', the expected length in DO'97', a retail MAC in DO'8E' over
// the send sequence counter (SSC), the padded header and those objects; the response's DO'87',
// DO'99' (status) and DO'8E' checked the same way. The SSC is incremented before each command and
// each response, so a replayed or reordered APDU fails its MAC.
import { type ApduChannel, type CommandApdu, isExtended, type ResponseApdu } from './apdu.js';
import { concat, equalBytes } from './bytes.js';
import { pad, retailMac, tdesDecrypt, tdesEncrypt, unpad } from './des.js';
import { readTlvs, tlv } from './tlv.js';

export class SecureMessagingError extends Error {
  override name = 'SecureMessagingError';
}

export interface SessionKeys {
  ksEnc: Buffer;
  ksMac: Buffer;
  /** 8 bytes, the value before the first protected command. */
  ssc: Buffer;
}

function increment(ssc: Buffer): void {
  for (let i = ssc.length - 1; i >= 0; i--) {
    ssc[i] = ((ssc[i] as number) + 1) & 0xff;
    if (ssc[i] !== 0) return;
  }
}

const leObject = (le: number, extended: boolean) =>
  extended ? tlv(0x97, Buffer.from([(le >> 8) & 0xff, le & 0xff])) : tlv(0x97, Buffer.from([le & 0xff]));

/** One side's secure-messaging state. The terminal protects commands and unprotects responses. */
export class SecureMessaging {
  private readonly ssc: Buffer;
  private broken = false;

  constructor(private readonly keys: SessionKeys) {
    this.ssc = Buffer.from(keys.ssc);
  }

  /** The current send sequence counter (a copy). */
  get sendSequenceCounter(): Buffer {
    return Buffer.from(this.ssc);
  }

  private mac(...parts: Uint8Array[]): Buffer {
    return retailMac(this.keys.ksMac, pad(concat(this.ssc, ...parts)));
  }

  protect(apdu: CommandApdu): CommandApdu {
    if (this.broken)
      throw new SecureMessagingError('secure messaging was aborted; access control must be done again');
    if (apdu.cla & 0x0c) throw new SecureMessagingError('the command already has SM bits set');
    const extended = isExtended(apdu);
    const cla = apdu.cla | 0x0c;
    const header = pad(Buffer.from([cla, apdu.ins, apdu.p1, apdu.p2]));
    const do87 =
      apdu.data && apdu.data.length > 0
        ? tlv(0x87, Buffer.from([0x01]), tdesEncrypt(this.keys.ksEnc, pad(apdu.data)))
        : Buffer.alloc(0);
    const do97 = apdu.le !== undefined ? leObject(apdu.le, extended) : Buffer.alloc(0);
    increment(this.ssc);
    const do8e = tlv(0x8e, this.mac(header, do87, do97));
    return {
      cla,
      ins: apdu.ins,
      p1: apdu.p1,
      p2: apdu.p2,
      data: concat(do87, do97, do8e),
      le: extended ? 65536 : 256,
    };
  }

  unprotect(response: ResponseApdu): ResponseApdu {
    increment(this.ssc);
    // A chip that finds an SM error answers in plain (Part 11 §9.8.6) and ends the session.
    if (response.data.length === 0 && response.sw !== 0x9000) {
      this.broken = true;
      return response;
    }
    let objects: ReturnType<typeof readTlvs>;
    try {
      objects = readTlvs(response.data);
    } catch (error) {
      this.broken = true;
      throw new SecureMessagingError(`malformed protected response: ${(error as Error).message}`);
    }
    const raw = (tag: number) => {
      const o = objects.find((x) => x.tag === tag);
      return o ? response.data.subarray(o.start, o.end) : undefined;
    };
    const do87 = raw(0x87);
    const do99 = raw(0x99);
    const do8e = objects.find((x) => x.tag === 0x8e);
    if (!do99 || !do8e) {
      this.broken = true;
      throw new SecureMessagingError('protected response without its status (DO99) or MAC (DO8E)');
    }
    if (!equalBytes(this.mac(do87 ?? Buffer.alloc(0), do99), do8e.value)) {
      this.broken = true;
      throw new SecureMessagingError('the response MAC does not verify');
    }
    const status = objects.find((x) => x.tag === 0x99)!.value;
    if (status.length !== 2) throw new SecureMessagingError('DO99 is not a status word');
    let data: Buffer = Buffer.alloc(0);
    const encrypted = objects.find((x) => x.tag === 0x87);
    if (encrypted) {
      if (encrypted.value[0] !== 0x01 || (encrypted.value.length - 1) % 8 !== 0)
        throw new SecureMessagingError('DO87 is not padded 3DES ciphertext');
      data = unpad(tdesDecrypt(this.keys.ksEnc, encrypted.value.subarray(1)));
    }
    return { data, sw: status.readUInt16BE(0) };
  }
}

/** A channel whose every command and response goes through `sm`. */
export const secureChannel = (plain: ApduChannel, sm: SecureMessaging): ApduChannel => ({
  async send(apdu) {
    return sm.unprotect(await plain.send(sm.protect(apdu)));
  },
});
