// ICAO Doc 9303 Part 11 (8th ed.), Appendix D: the published BAC worked example, from the MRZ
// information to the first secure-messaging exchanges reading EF.COM. Every value is the
// appendix's; the random numbers are the appendix's too, so the code runs the example exactly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  adjustParity,
  bacKeySeed,
  bacKeys,
  encodeCommand,
  fromHex,
  hex,
  mrzInformation,
  pad,
  retailMac,
  SecureMessaging,
  SecureMessagingError,
  sessionKeysFromChipAnswer,
  tdesDecrypt,
  tdesEncrypt,
  terminalCryptogram,
} from '../../packages/chip/src/index.ts';

const RND_IC = fromHex('4608F91988702212');
const RND_IFD = fromHex('781723860C06C226');
const K_IFD = fromHex('0B795240CB7049B01C19B33E32804F0B');
const K_IC = fromHex('0B4F80323EB3191CB04970CB4052790B');

describe('ICAO 9303 Part 11 Appendix D.2: document basic access keys', () => {
  it('builds MRZ_information from the document number, birth and expiry dates with their check digits', () => {
    assert.equal(
      mrzInformation({ documentNumber: 'L898902C', birthDate: '690806', expiryDate: '940623' }),
      'L898902C<369080619406236',
    );
    // A number longer than nine characters is taken whole, with its own check digit.
    assert.equal(
      mrzInformation({ documentNumber: 'D23145890734', birthDate: '340712', expiryDate: '950712' }),
      'D23145890734934071279507122',
    );
  });

  it('derives K_seed, K_enc and K_mac (SHA-1, parity adjusted)', () => {
    const info = 'L898902C<369080619406236';
    assert.equal(hex(bacKeySeed(info)), '239AB9CB282DAF66231DC5A4DF6BFBAE');
    const keys = bacKeys(info);
    assert.equal(hex(keys.kEnc), 'AB94FDECF2674FDFB9B391F85D7F76F2');
    assert.equal(hex(keys.kMac), '7962D9ECE03D1ACD4C76089DCE131543');
  });

  it('sets odd parity on each key byte', () => {
    assert.equal(hex(adjustParity(fromHex('00FF0102'))), '01FE0102');
  });
});

describe('ICAO 9303 Part 11 Appendix D.3: mutual authentication', () => {
  const keys = bacKeys('L898902C<369080619406236');

  it('encrypts and MACs the terminal cryptogram S = RND.IFD ‖ RND.IC ‖ K.IFD', () => {
    const cmd = terminalCryptogram(keys, RND_IC, RND_IFD, K_IFD);
    assert.equal(
      hex(cmd.subarray(0, 32)),
      '72C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F2',
    );
    assert.equal(hex(cmd.subarray(32)), '5F1448EEA8AD90A7');
  });

  it("checks the chip's answer E_IC ‖ M_IC and derives the session keys and SSC", () => {
    const r = Buffer.concat([RND_IC, RND_IFD, K_IC]);
    const eIc = tdesEncrypt(keys.kEnc, r);
    assert.equal(hex(eIc), '46B9342A41396CD7386BF5803104D7CEDC122B9132139BAF2EEDC94EE178534F');
    const mIc = retailMac(keys.kMac, pad(eIc));
    assert.equal(hex(mIc), '2F2D235D074D7449');
    assert.deepEqual(tdesDecrypt(keys.kEnc, eIc), r);
    const session = sessionKeysFromChipAnswer(keys, RND_IC, RND_IFD, K_IFD, Buffer.concat([eIc, mIc]));
    assert.equal(hex(session.ksEnc), '979EC13B1CBFE9DCD01AB0FED307EAE5');
    assert.equal(hex(session.ksMac), 'F1CB1F1FB5ADF208806B89DC579DC1F8');
    assert.equal(hex(session.ssc), '887022120C06C226');
  });

  it('refuses an answer whose MAC or echoed challenge is wrong', () => {
    const eIc = fromHex('46B9342A41396CD7386BF5803104D7CEDC122B9132139BAF2EEDC94EE178534F');
    const badMac = Buffer.concat([eIc, fromHex('2F2D235D074D7448')]);
    assert.throws(
      () => sessionKeysFromChipAnswer(keys, RND_IC, RND_IFD, K_IFD, badMac),
      SecureMessagingError,
    );
    const otherChallenge = fromHex('4608F91988702213');
    const good = Buffer.concat([eIc, fromHex('2F2D235D074D7449')]);
    assert.throws(() => sessionKeysFromChipAnswer(keys, otherChallenge, RND_IFD, K_IFD, good), /challenge/);
  });
});

describe('ICAO 9303 Part 11 Appendix D.4: secure messaging', () => {
  const start = () =>
    new SecureMessaging({
      ksEnc: fromHex('979EC13B1CBFE9DCD01AB0FED307EAE5'),
      ksMac: fromHex('F1CB1F1FB5ADF208806B89DC579DC1F8'),
      ssc: fromHex('887022120C06C226'),
    });
  const bytes = (apdu: ReturnType<SecureMessaging['protect']>) => hex(encodeCommand(apdu));
  const response = (text: string) => {
    const b = fromHex(text);
    return { data: b.subarray(0, b.length - 2), sw: b.readUInt16BE(b.length - 2) };
  };

  it('protects SELECT EF.COM, READ BINARY of 4 then 18 bytes, and unprotects the answers', () => {
    const sm = start();
    assert.equal(
      bytes(sm.protect({ cla: 0, ins: 0xa4, p1: 2, p2: 0x0c, data: fromHex('011E') })),
      '0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800',
    );
    assert.equal(hex(sm.sendSequenceCounter), '887022120C06C227');
    assert.deepEqual(sm.unprotect(response('990290008E08FA855A5D4C50A8ED9000')), {
      data: Buffer.alloc(0),
      sw: 0x9000,
    });
    assert.equal(
      bytes(sm.protect({ cla: 0, ins: 0xb0, p1: 0, p2: 0, le: 4 })),
      '0CB000000D9701048E08ED6705417E96BA5500',
    );
    const four = sm.unprotect(response('8709019FF0EC34F9922651990290008E08AD55CC17140B2DED9000'));
    assert.equal(hex(four.data), '60145F01');
    assert.equal(
      bytes(sm.protect({ cla: 0, ins: 0xb0, p1: 0, p2: 4, le: 0x12 })),
      '0CB000040D9701128E082EA28A70F3C7B53500',
    );
    const rest = sm.unprotect(
      response('871901FB9235F4E4037F2327DCC8964F1F9B8C30F42C8E2FFF224A990290008E08C8B2787EAEA07D749000'),
    );
    assert.equal(hex(rest.data), '04303130365F36063034303030305C026175');
    assert.equal(hex(sm.sendSequenceCounter), '887022120C06C22C');
  });

  it('refuses a response whose MAC fails, and one replayed out of sequence', () => {
    const tampered = start();
    tampered.protect({ cla: 0, ins: 0xa4, p1: 2, p2: 0x0c, data: fromHex('011E') });
    assert.throws(() => tampered.unprotect(response('990290008E08FA855A5D4C50A8EE9000')), /MAC/);
    const replayed = start();
    replayed.protect({ cla: 0, ins: 0xa4, p1: 2, p2: 0x0c, data: fromHex('011E') });
    replayed.unprotect(response('990290008E08FA855A5D4C50A8ED9000'));
    replayed.protect({ cla: 0, ins: 0xb0, p1: 0, p2: 0, le: 4 });
    // The SELECT's answer again, where the READ BINARY's is due: the SSC differs, so its MAC fails.
    assert.throws(() => replayed.unprotect(response('990290008E08FA855A5D4C50A8ED9000')), /MAC/);
  });
});
