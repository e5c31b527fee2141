// `mimoto inspect chip` on files a software card's document is made of (its PKI generated here):
// the printed object is exactly the contract's, exit 0 valid or not, exit 2 for unusable input.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildTestDocument, type TestDocument } from '../helpers/chip/test-document.ts';
import { createCsca } from '../helpers/chip/test-pki.ts';
import { runBin, runCli } from '../helpers/run-cli.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'mimoto-inspect-chip-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const put = (name: string, bytes: Buffer | string) => {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return file;
};

let doc: TestDocument;
let files: { sod: string; dg1: string; dg2: string; csca: string };

before(async () => {
  doc = await buildTestDocument();
  files = {
    sod: put('EF.SOD', doc.sod),
    dg1: put('EF.DG1', doc.dataGroups[1]!),
    dg2: put('EF.DG2', doc.dataGroups[2]!),
    csca: put('csca.pem', doc.csca.pem),
  };
});

const chip = (args: string[]) => runCli(['inspect', 'chip', ...args]);
async function json(args: string[]) {
  const r = await chip([...args, '--json']);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('mimoto inspect chip', () => {
  it('prints exactly the contract for a genuine document: all valid, the MRZ lines', async () => {
    const out = await json([
      '--sod',
      files.sod,
      '--dg1',
      files.dg1,
      '--dg2',
      files.dg2,
      '--csca',
      files.csca,
    ]);
    assert.deepEqual(out, {
      passiveAuthentication: {
        valid: true,
        chainValid: true,
        signatureValid: true,
        dataGroups: { '1': true, '2': true },
      },
      mrz: { lines: doc.mrzLines, valid: true },
    });
  });

  it('reports a tampered DG1 as its hash failing (exit 0)', async () => {
    const tampered = await buildTestDocument({ csca: doc.csca, tamperDataGroup1: true });
    const out = await json([
      '--sod',
      put('t.sod', tampered.sod),
      '--dg1',
      put('t.dg1', tampered.dataGroups[1]!),
      '--csca',
      files.csca,
    ]);
    assert.deepEqual(out.passiveAuthentication, {
      valid: false,
      chainValid: true,
      signatureValid: true,
      dataGroups: { '1': false },
    });
    assert.equal(out.mrz.valid, true);
  });

  it('reports a CSCA that did not issue the signer as chainValid false, and accepts a bundle holding the right one', async () => {
    const stranger = put('stranger.pem', createCsca('Elsewhere CSCA (test)').pem);
    const out = await json(['--sod', files.sod, '--dg1', files.dg1, '--csca', stranger]);
    assert.equal(out.passiveAuthentication.chainValid, false);
    assert.equal(out.passiveAuthentication.signatureValid, true);
    assert.equal(out.passiveAuthentication.valid, false);
    const both = await json([
      '--sod',
      files.sod,
      '--dg1',
      files.dg1,
      '--csca',
      stranger,
      '--csca',
      files.csca,
    ]);
    assert.equal(both.passiveAuthentication.valid, true);
  });

  it('exits 2 with one clear line for a truncated, hostile or missing SOD, an oversized DG and a bad CSCA file', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['--sod', put('short.sod', doc.sod.subarray(0, 200)), '--dg1', files.dg1, '--csca', files.csca],
        /malformed/,
      ],
      [
        [
          '--sod',
          put('junk.sod', Buffer.from('this is not an SOD')),
          '--dg1',
          files.dg1,
          '--csca',
          files.csca,
        ],
        /tag 77|malformed/,
      ],
      [['--sod', path.join(dir, 'absent'), '--dg1', files.dg1, '--csca', files.csca], /no such file/],
      [
        ['--sod', files.sod, '--dg1', put('big.dg1', Buffer.alloc(2000)), '--csca', files.csca],
        /more than the 1024 accepted/,
      ],
      [
        ['--sod', files.sod, '--dg1', files.dg1, '--csca', put('empty.pem', 'nothing here')],
        /no PEM certificate/,
      ],
      [['--sod', files.sod, '--dg1', files.dg1], /--csca/],
    ];
    for (const [args, message] of cases) {
      const r = await chip(args);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
    }
  });

  it('prints mrz null for a DG1 that holds no MRZ, its hash failing', async () => {
    const out = await json([
      '--sod',
      files.sod,
      '--dg1',
      put('nomrz.dg1', Buffer.from([0x61, 0x02, 0x04, 0x00])),
      '--csca',
      files.csca,
    ]);
    assert.equal(out.mrz, null);
    assert.deepEqual(out.passiveAuthentication.dataGroups, { '1': false });
  });

  it('runs as the separate process an operator starts', () => {
    const r = runBin([
      'inspect',
      'chip',
      '--sod',
      files.sod,
      '--dg1',
      files.dg1,
      '--csca',
      files.csca,
      '--json',
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).passiveAuthentication.valid, true);
    const bad = runBin(['inspect', 'chip', '--sod', files.dg1, '--dg1', files.dg1, '--csca', files.csca]);
    assert.equal(bad.status, 2);
  });
});
