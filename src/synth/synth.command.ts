// `mimoto synth --out DIR [--seed N] --count K [--faces DIR] [--no-video] [--capture-width PX]`
// (docs/corpus.md). Usage errors go to stderr with exit code 2.
import { parseArgs } from 'node:util';
import { generateCorpus } from './generate-corpus.ts';

const usage = `usage: mimoto synth --out DIR --count K [--seed N] [options]

Writes K genuine bundles per document type and K bundles per attack type, with DIR/manifest.json.

options:
  --out DIR            output folder (created if missing)
  --seed N             integer seed (default 1); the same arguments give the same bytes
  --count K            bundles per document type and per attack type (1-1000)
  --faces DIR          face photos <person><n>.png (default: faces cut from the photos in
                       @vladmandic/face-api's demo folder, installed with the project)
  --no-video           skip the .y4m liveness videos (about 16 MB each)
  --capture-width PX   width of document photos (default 1280; 320-4000)
  --only ID[,ID...]    generate only these sample ids
  --identities wide    draw the people widely (variant kanji, long names, every prefecture's
                       municipalities, 0-digit era years and 元年; docs/corpus.md "Breadth")
  --contact-sheets DIR also write contact-sheet PNGs (corpus-*.png) into DIR
`;

interface CommandOutput {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export async function synthCommand(args: string[], io: CommandOutput = process): Promise<number> {
  const fail = (message: string): number => {
    io.stderr.write(`mimoto synth: ${message}\n${usage}`);
    return 2;
  };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        out: { type: 'string' },
        seed: { type: 'string' },
        count: { type: 'string' },
        faces: { type: 'string' },
        'no-video': { type: 'boolean' },
        'capture-width': { type: 'string' },
        only: { type: 'string' },
        identities: { type: 'string' },
        'contact-sheets': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return fail((error as Error).message);
  }
  if (values.help) {
    io.stdout.write(usage);
    return 0;
  }
  const out = values.out;
  if (typeof out !== 'string' || out === '') return fail('--out is required');
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isSafeInteger(seed)) return fail('--seed must be an integer');
  const count = Number(values.count);
  if (values.count === undefined || !Number.isInteger(count) || count < 1 || count > 1000) {
    return fail('--count must be an integer from 1 to 1000');
  }
  const captureWidth = values['capture-width'] === undefined ? 1280 : Number(values['capture-width']);
  if (!Number.isInteger(captureWidth) || captureWidth < 320 || captureWidth > 4000) {
    return fail('--capture-width must be an integer from 320 to 4000');
  }
  const identities = values.identities;
  if (identities !== undefined && identities !== 'wide' && identities !== 'classic')
    return fail('--identities must be wide or classic');
  const only = typeof values.only === 'string' ? values.only.split(',').filter(Boolean) : undefined;
  const started = performance.now();
  const manifest = await generateCorpus({
    outDir: out,
    seed,
    count,
    facesDir: typeof values.faces === 'string' ? values.faces : undefined,
    video: values['no-video'] !== true,
    captureWidth: Math.round(captureWidth / 4) * 4,
    only,
    ...(identities ? { identities } : {}),
    onSample: (id, i, total) => io.stderr.write(`[${i + 1}/${total}] ${id}\n`),
  });
  const sheetsDir = values['contact-sheets'];
  if (typeof sheetsDir === 'string') {
    const { writeContactSheets } = await import('./contact-sheet.ts');
    const written = await writeContactSheets(manifest, out, sheetsDir);
    io.stdout.write(`wrote ${written.length} contact sheets to ${sheetsDir}\n`);
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  io.stdout.write(`wrote ${manifest.samples.length} samples to ${out}/manifest.json in ${seconds} s\n`);
  return 0;
}
