// `npm start` runs this first (package.json "prestart"): it builds the hosted flow's browser app
// into dist/web when the build is missing or older than a file under web/ (or the shared quality
// and pose modules the app imports), so `npm ci && npm start` works on a fresh clone.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const built = path.join(repo, 'dist/web/index.html');
const SOURCES = [
  'web',
  'src/hosted-flow/assess-document-quality.ts',
  'src/liveness/classify-head-pose.ts',
  'package-lock.json',
];

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(target, { recursive: true })) {
    const file = path.join(target, String(entry));
    const s = statSync(file);
    if (s.isFile()) newest = Math.max(newest, s.mtimeMs);
  }
  return newest;
}

const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
const sourcesAt = Math.max(...SOURCES.map((s) => newestMtime(path.join(repo, s))));
if (builtAt >= sourcesAt) process.exit(0);

// npm puts vite here (package.json devDependencies); it is absent after `npm ci --omit=dev`.
const vite = path.join(repo, 'node_modules/vite/bin/vite.js');
if (!existsSync(vite)) {
  if (builtAt) {
    console.warn('web app: vite is not installed (npm ci --omit=dev?); serving the existing dist/web');
    process.exit(0);
  }
  console.error(
    'web app: dist/web is missing and vite is not installed: run `npm ci` (with dev dependencies) and `npm run build:web`',
  );
  process.exit(1);
}
const result = spawnSync(
  process.execPath,
  [vite, 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
  {
    cwd: repo,
    stdio: 'inherit',
  },
);
process.exit(result.status ?? 1);
