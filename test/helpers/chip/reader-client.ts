// A test chip reader: what a phone app or a PC/SC reader's helper does with the hand-off code the
// hosted page shows, against the service's real routes (app.inject) — opens the code's URL, takes a
// nonce, reads the chip (the software card) through @mimoto/chip with the MRZ's access key and the
// nonce, and hands in the files and the chip's answer. Each step is its own function, so the tests
// can replay, tamper with or skip one.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type CardTransport, type MrzAccessKey, readEmrtd } from '../../../packages/chip/src/index.ts';

export interface ReaderHandoff {
  url: string;
  deepLink: string;
  qrSvg: string;
  expiresAt: string;
  document: { kind: string; documentType: string; access: string };
}

export interface ReadingBody {
  nonce: string;
  sod: string;
  dataGroups: Record<string, string>;
  activeAuthenticationSignature?: string;
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

export class ChipReaderClient {
  constructor(
    readonly app: FastifyInstance,
    /** The URL of the hand-off (its QR code). */
    readonly url: string,
  ) {}

  describe(): Promise<LightMyRequestResponse> {
    return this.app.inject({ method: 'GET', url: pathOf(this.url) });
  }

  async nonce(): Promise<string> {
    const res = await this.app.inject({ method: 'POST', url: `${pathOf(this.url)}/nonce` });
    if (res.statusCode !== 201) throw new Error(`nonce: ${res.statusCode} ${res.body}`);
    return (res.json() as { nonce: string }).nonce;
  }

  /** Reads the card as a reader app does: BAC with the MRZ, the files, AA over the nonce. */
  async read(card: CardTransport, access: MrzAccessKey, nonce: string): Promise<ReadingBody> {
    const r = await readEmrtd(card, { access, activeAuthenticationNonce: Buffer.from(nonce, 'hex') });
    return {
      nonce,
      sod: r.sod.toString('base64'),
      dataGroups: Object.fromEntries(Object.entries(r.dataGroups).map(([n, b]) => [n, b.toString('base64')])),
      ...(r.activeAuthentication
        ? { activeAuthenticationSignature: r.activeAuthentication.signature.toString('base64') }
        : {}),
    };
  }

  send(body: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
    return this.app.inject({
      method: 'POST',
      url: `${pathOf(this.url)}/reading`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });
  }

  /** The whole reader side: nonce, read, hand in. */
  async readAndSend(card: CardTransport, access: MrzAccessKey) {
    const body = await this.read(card, access, await this.nonce());
    return { body, response: await this.send(body) };
  }
}
