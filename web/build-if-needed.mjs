// `npm start` runs this first (package.json "prestart"): it builds the browser apps — the hosted
// flow into dist/web, the console into dist/console — when a build is missing or older than a file
// under web/ (or the shared quality and pose modules the flow imports), so `npm ci && npm start`
// works on a fresh clone.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const APPS = [
  { config: 'web/vite.config.ts', built: path.join(repo, 'dist/web/index.html') },
  { config: 'web/console/vite.config.ts', built: path.join(repo, 'dist/console/index.html') },
];
const SOURCES = [
  'web',
  'src/hosted-flow/assess-document-quality.ts',
  'src/liveness/classify-head-pose.ts',
  'src/platform/ml/human-face-mesh-config.ts',
  'src/platform/ml/human.ts',
  'src/review/review-reasons.ts',
  'src/domain/vocabulary.ts',
  'src/hosted-flow/document-types.ts',
  'src/hosted-flow/user-input-fields.ts',
  'src/hosted-flow/identify-document-capture-rules.ts',
  'src/hosted-flow/latin-name-kana.ts',
  'src/hosted-flow/upload-limits.ts',
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

const sourcesAt = Math.max(...SOURCES.map((s) => newestMtime(path.join(repo, s))));
const builtAt = (app) => (existsSync(app.built) ? statSync(app.built).mtimeMs : 0);
const stale = APPS.filter((app) => builtAt(app) < sourcesAt);
if (stale.length === 0) process.exit(0);

// npm puts vite here (package.json devDependencies); it is absent after `npm ci --omit=dev`.
const vite = path.join(repo, 'node_modules/vite/bin/vite.js');
if (!existsSync(vite)) {
  if (stale.every((app) => builtAt(app) > 0)) {
    console.warn('web apps: vite is not installed (npm ci --omit=dev?); serving the existing builds');
    process.exit(0);
  }
  console.error(
    'web apps: a build under dist/ is missing and vite is not installed: run `npm ci` (with dev dependencies) and `npm run build:web`',
  );
  process.exit(1);
}
for (const app of stale) {
  const result = spawnSync(process.execPath, [vite, 'build', '--config', app.config, '--logLevel', 'warn'], {
    cwd: repo,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
