// A software eMRTD chip that answers as ICAO 9303 Part 11 says: the eMRTD application selected by
// AID, BAC (GET CHALLENGE, EXTERNAL AUTHENTICATE, Appendix D's computations from the card's side),
// every later command under 3DES secure messaging (MAC checked over the SSC; a failure ends the
// session with a plain 6988 as §9.8.6 describes), SELECT and READ BINARY of its files, and INTERNAL
// AUTHENTICATE signed ISO/IEC 9796-2 scheme 1 with its Active Authentication key. A clone is the
// same files on a card without that key.
import {
  constants,
  createHash,
  generateKeyPairSync,
  type KeyObject,
  privateEncrypt,
  randomBytes,
} from 'node:crypto';
import {
  bacKeys,
  type CardTransport,
  concat,
  decodeCommand,
  deriveDesKey,
  EMRTD_AID,
  encodeResponse,
  equalBytes,
  FILE_ID,
  mrzInformation,
  pad,
  type ResponseApdu,
  readTlvs,
  retailMac,
  tdesDecrypt,
  tdesEncrypt,
  tlv,
  unpad,
  xor,
} from '../../../packages/chip/src/index.ts';
import type { TestDocument } from './test-document.ts';

const status = (sw: number): ResponseApdu => ({ data: Buffer.alloc(0), sw });

interface Session {
  ksEnc: Buffer;
  ksMac: Buffer;
  ssc: Buffer;
}

function increment(ssc: Buffer): void {
  for (let i = ssc.length - 1; i >= 0; i--) {
    ssc[i] = ((ssc[i] as number) + 1) & 0xff;
    if (ssc[i] !== 0) return;
  }
}

export interface SoftwareCardOptions {
  /** The card's own AA key; a clone has another one (default: the document's, i.e. the genuine chip). */
  activeAuthenticationKey?: KeyObject;
}

export class SoftwareCard implements CardTransport {
  private readonly files = new Map<number, Buffer>();
  private readonly keys;
  private readonly aaKey: KeyObject;
  private applet = false;
  private rndIc: Buffer | null = null;
  private session: Session | null = null;
  private selected: Buffer | null = null;
  /** Every command APDU received, for tests that look at the exchange. */
  readonly log: Buffer[] = [];

  constructor(document: TestDocument, options: SoftwareCardOptions = {}) {
    this.files.set(FILE_ID.com, document.com);
    this.files.set(FILE_ID.sod, document.sod);
    for (const [n, bytes] of Object.entries(document.dataGroups))
      this.files.set(FILE_ID.dataGroup(Number(n)), bytes);
    this.keys = bacKeys(mrzInformation(document.access));
    this.aaKey = options.activeAuthenticationKey ?? document.activeAuthenticationKey;
  }

  /** The same files on a chip made by a copier: it cannot have the original's AA private key. */
  static clone(document: TestDocument): SoftwareCard {
    return new SoftwareCard(document, {
      activeAuthenticationKey: generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey,
    });
  }

  async transmit(bytes: Uint8Array): Promise<Uint8Array> {
    this.log.push(Buffer.from(bytes));
    let command: ReturnType<typeof decodeCommand>;
    try {
      command = decodeCommand(bytes);
    } catch {
      return encodeResponse(status(0x6700));
    }
    if (command.cla & 0x0c) return encodeResponse(this.secured(command));
    return encodeResponse(this.plain(command));
  }

  private plain(c: ReturnType<typeof decodeCommand>): ResponseApdu {
    if (c.ins === 0xa4 && c.p1 === 0x04) {
      this.applet = !!c.data && equalBytes(c.data, EMRTD_AID);
      this.session = null;
      return status(this.applet ? 0x9000 : 0x6a82);
    }
    if (!this.applet) return status(0x6985);
    if (c.ins === 0x84 && c.le === 8) {
      this.rndIc = randomBytes(8);
      return { data: this.rndIc, sw: 0x9000 };
    }
    if (c.ins === 0x82) return this.externalAuthenticate(c.data);
    // Files are readable only under secure messaging once BAC is done.
    return status(0x6982);
  }

  private externalAuthenticate(data: Uint8Array | undefined): ResponseApdu {
    const rndIc = this.rndIc;
    this.rndIc = null;
    if (!rndIc || !data || data.length !== 40) return status(0x6700);
    const eIfd = Buffer.from(data.subarray(0, 32));
    if (!equalBytes(retailMac(this.keys.kMac, pad(eIfd)), data.subarray(32))) return status(0x6300);
    const s = tdesDecrypt(this.keys.kEnc, eIfd);
    const rndIfd = s.subarray(0, 8);
    if (!equalBytes(s.subarray(8, 16), rndIc)) return status(0x6300);
    const kIc = randomBytes(16);
    const eIc = tdesEncrypt(this.keys.kEnc, concat(rndIc, rndIfd, kIc));
    const seed = xor(s.subarray(16, 32), kIc);
    this.session = {
      ksEnc: deriveDesKey(seed, 1),
      ksMac: deriveDesKey(seed, 2),
      ssc: concat(rndIc.subarray(4, 8), rndIfd.subarray(4, 8)),
    };
    return { data: concat(eIc, retailMac(this.keys.kMac, pad(eIc))), sw: 0x9000 };
  }

  private secured(c: ReturnType<typeof decodeCommand>): ResponseApdu {
    const session = this.session;
    if (!session) return status(0x6988);
    const abort = () => {
      this.session = null;
      return status(0x6988);
    };
    let objects: ReturnType<typeof readTlvs>;
    try {
      objects = readTlvs(Buffer.from(c.data ?? []));
    } catch {
      return abort();
    }
    const body = Buffer.from(c.data ?? []);
    const raw = (tag: number) => {
      const o = objects.find((x) => x.tag === tag);
      return o ? body.subarray(o.start, o.end) : Buffer.alloc(0);
    };
    const mac = objects.find((x) => x.tag === 0x8e);
    if (!mac) return abort();
    increment(session.ssc);
    const header = pad(Buffer.from([c.cla, c.ins, c.p1, c.p2]));
    const expected = retailMac(session.ksMac, pad(concat(session.ssc, header, raw(0x87), raw(0x97))));
    if (!equalBytes(expected, mac.value)) return abort();
    const do87 = objects.find((x) => x.tag === 0x87);
    const do97 = objects.find((x) => x.tag === 0x97);
    let data: Buffer | undefined;
    try {
      data = do87 ? unpad(tdesDecrypt(session.ksEnc, do87.value.subarray(1))) : undefined;
    } catch {
      return abort();
    }
    const le = do97
      ? do97.value.length === 1
        ? do97.value[0] || 256
        : do97.value.readUInt16BE(0) || 65536
      : undefined;
    const answer = this.command({
      ins: c.ins,
      p1: c.p1,
      p2: c.p2,
      ...(data ? { data } : {}),
      ...(le ? { le } : {}),
    });
    increment(session.ssc);
    const r87 =
      answer.data.length > 0
        ? tlv(0x87, Buffer.from([1]), tdesEncrypt(session.ksEnc, pad(answer.data)))
        : Buffer.alloc(0);
    const r99 = tlv(0x99, Buffer.from([answer.sw >> 8, answer.sw & 0xff]));
    const r8e = tlv(0x8e, retailMac(session.ksMac, pad(concat(session.ssc, r87, r99))));
    return { data: concat(r87, r99, r8e), sw: answer.sw };
  }

  private command(c: { ins: number; p1: number; p2: number; data?: Buffer; le?: number }): ResponseApdu {
    if (c.ins === 0xa4 && c.p1 === 0x02) {
      const fid = c.data?.length === 2 ? c.data.readUInt16BE(0) : -1;
      this.selected = this.files.get(fid) ?? null;
      return status(this.selected ? 0x9000 : 0x6a82);
    }
    if (c.ins === 0xb0) {
      if (!this.selected) return status(0x6986);
      if (c.p1 & 0x80) return status(0x6a81);
      const offset = (c.p1 << 8) | c.p2;
      if (offset > this.selected.length) return status(0x6b00);
      const data = this.selected.subarray(offset, offset + (c.le ?? 256));
      return { data, sw: data.length < (c.le ?? 256) ? 0x6282 : 0x9000 };
    }
    if (c.ins === 0x88) {
      if (c.data?.length !== 8) return status(0x6700);
      return { data: this.signIso9796(c.data as Buffer), sw: 0x9000 };
    }
    return status(0x6d00);
  }

  /** ISO/IEC 9796-2 scheme 1, partial recovery, SHA-1: F = 6A ‖ M1 ‖ SHA-1(M1 ‖ M2) ‖ BC, raw RSA. */
  private signIso9796(nonce: Buffer): Buffer {
    const size = ((this.aaKey.asymmetricKeyDetails?.modulusLength ?? 1024) + 7) >> 3;
    const m1 = randomBytes(size - 22);
    const h = createHash('sha1').update(concat(m1, nonce)).digest();
    const f = concat(Buffer.from([0x6a]), m1, h, Buffer.from([0xbc]));
    return privateEncrypt({ key: this.aaKey, padding: constants.RSA_NO_PADDING }, f);
  }
}
