// ICAO Doc 9303 Part 11 Appendix G.1: the PACE worked example (ECDH generic mapping,
// brainpoolP256r1, AES-128), every value the appendix's; the curve arithmetic checked against
// OpenSSL's, the CMAC against NIST SP 800-38B's examples.
import assert from 'node:assert/strict';
import { createECDH } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  aesCmac,
  authenticationToken,
  BRAINPOOL_P256R1 as C,
  decodePoint,
  decryptNonce,
  deriveAes128Key,
  encodePoint,
  fromHex,
  hex,
  mapGenerator,
  mrzInformation,
  mrzPassword,
  multiply,
  PACE_ECDH_GM_AES_128,
} from '../../packages/chip/src/index.ts';

const big = (h: string) => BigInt(`0x${h}`);

describe('curve arithmetic and CMAC', () => {
  it("agrees with OpenSSL's brainpoolP256r1: the generator and a random scalar multiple", () => {
    const one = createECDH('brainpoolP256r1');
    one.setPrivateKey(Buffer.concat([Buffer.alloc(31), Buffer.from([1])]));
    assert.equal(hex(encodePoint(C, C.g)), hex(one.getPublicKey()));
    // OpenSSL's own key pair: a scalar below the order, which 32 random bytes need not be.
    const ecdh = createECDH('brainpoolP256r1');
    ecdh.generateKeys();
    const k = ecdh.getPrivateKey();
    assert.equal(hex(encodePoint(C, multiply(C, big(k.toString('hex')), C.g))), hex(ecdh.getPublicKey()));
    assert.equal(multiply(C, C.n, C.g), null);
  });

  it('refuses a point off the curve', () => {
    const g = encodePoint(C, C.g);
    g[64] = (g[64] as number) ^ 1;
    assert.throws(() => decodePoint(C, g), /not on the curve/);
  });

  it('computes AES-CMAC as NIST SP 800-38B D.1 does', () => {
    const key = fromHex('2B7E151628AED2A6ABF7158809CF4F3C');
    assert.equal(hex(aesCmac(key, Buffer.alloc(0))), 'BB1D6929E95937287FA37D129B756746');
    assert.equal(
      hex(aesCmac(key, fromHex('6BC1BEE22E409F96E93D7E117393172A'))),
      '070A16B46B4D4144F79BDD9DD04A287C',
    );
  });
});

describe('ICAO 9303 Part 11 Appendix G.1: PACE, ECDH generic mapping', () => {
  it('runs the example from the MRZ password to the authentication tokens', () => {
    const k = mrzPassword(
      mrzInformation({ documentNumber: 'T22000129', birthDate: '640812', expiryDate: '101031' }),
    );
    assert.equal(hex(k), '7E2D2A41C74EA0B38CD36F863939BFA8E9032AAD');
    const kPi = deriveAes128Key(k, 3);
    assert.equal(hex(kPi), '89DED1B26624EC1E634C1989302849DD');
    const s = decryptNonce(kPi, fromHex('95A3A016522EE98D01E76CB6B98B42C3'));
    assert.equal(hex(s), '3F00C4D39D153F2B2A214A078D899B22');

    const skMap = big('7F4EF07B9EA82FD78AD689B38D0BC78CF21F249D953BC46F4C6E19259C010F99');
    assert.equal(
      hex(encodePoint(C, multiply(C, skMap, C.g))),
      '047ACF3EFC982EC45565A4B155129EFBC74650DCBFA6362D896FC70262E0C2CC5E544552DCB6725218799115B55C9BAA6D9F6BC3A9618E70C25AF71777A9C4922D',
    );
    const pkMapIc = decodePoint(
      C,
      fromHex(
        '04824FBA91C9CBE26BEF53A0EBE7342A3BF178CEA9F45DE0B70AA601651FBA3F5730D8C879AAA9C9F73991E61B58F4D52EB87A0A0C709A49DC63719363CCD13C54',
      ),
    );
    const mapped = mapGenerator(C, s, skMap, pkMapIc);
    assert.equal(
      hex(encodePoint(C, mapped)),
      '048CED63C91426D4F0EB1435E7CB1D74A46723A0AF21C89634F65A9AE87A9265E28C879506743F8611AC33645C5B985C80B5F09A0B83407C1B6A4D857AE76FE522',
    );

    const skDh = big('A73FB703AC1436A18E0CFA5ABB3F7BEC7A070E7A6788486BEE230C4A22762595');
    const pkDhIfd = encodePoint(C, multiply(C, skDh, mapped));
    assert.equal(
      hex(pkDhIfd),
      '042DB7A64C0355044EC9DF190514C625CBA2CEA48754887122F3A5EF0D5EDD301C3556F3B3B186DF10B857B58F6A7EB80F20BA5DC7BE1D43D9BF850149FBB36462',
    );
    const pkDhIc = fromHex(
      '049E880F842905B8B3181F7AF7CAA9F0EFB743847F44A306D2D28C1D9EC65DF6DB7764B22277A2EDDC3C265A9F018F9CB852E111B768B326904B59A0193776F094',
    );
    const shared = encodePoint(C, multiply(C, skDh, decodePoint(C, pkDhIc))).subarray(1, 33);
    assert.equal(hex(shared), '28768D20701247DAE81804C9E780EDE582A9996DB4A315020B2733197DB84925');
    const ksEnc = deriveAes128Key(shared, 1);
    const ksMac = deriveAes128Key(shared, 2);
    assert.equal(hex(ksEnc), 'F5F0E35C0D7161EE6724EE513A0D9A7F');
    assert.equal(hex(ksMac), 'FE251C7858B356B24514B3BD5F4297D1');
    assert.equal(hex(authenticationToken(ksMac, PACE_ECDH_GM_AES_128, pkDhIc)), 'C2B0BD78D94BA866');
    assert.equal(hex(authenticationToken(ksMac, PACE_ECDH_GM_AES_128, pkDhIfd)), '3ABB9674BCE93C08');
  });
});
