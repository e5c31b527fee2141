// The layers of ARCHITECTURE.md, checked on every relative import in src/: platform imports no
// capability, the capability folders import one another without cycles, and a capability is used
// by others only through its index.ts (so its insides can change without touching its users).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

const SRC = path.resolve('src');

/** Top-level entries of src/ that are not capabilities: the app and main above them, platform below. */
const APP = new Set(['app.ts', 'api-document.ts', 'index.ts', 'main']);
const PLATFORM = new Set(['platform', 'config.ts']);

/**
 * Folder edges allowed to close a cycle for now, each with why. Empty means none: a new cycle fails
 * the test; removing one of these makes it fail too until it is taken off the list.
 */
const KNOWN_CYCLE_EDGES: ReadonlyMap<string, string> = new Map([]);

/**
 * Imports allowed to skip an index.ts, each with why: `from -> to`, where a path ending in `/`
 * stands for any file in that folder. An entry no import matches any more fails the test.
 */
const INDEX_EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  [
    'inference/geometry.worker.ts -> checks/ocr/find-document.ts',
    'the geometry thread loads only the document finding and warps it runs, not the whole OCR check',
  ],
  [
    'inference/ -> checks/document-spoof/card-thickness.ts',
    'the geometry thread loads only the thickness measurement it runs; document-spoof, being reworked, does not export it from its index.ts yet',
  ],
  [
    'hosted-flow/thickness-capture.ts -> checks/document-spoof/card-thickness.ts',
    'document-spoof, being reworked, does not export the thickness capture from its index.ts yet',
  ],
  [
    'main/open-platform.ts -> pipeline/identity-hashes.ts',
    "opening the platform (every CLI command) must not load the pipeline's checks and models",
  ],
  ['main/cli.ts -> synth/synth.command.ts', 'commands are loaded lazily; synth has no index.ts yet'],
  ['main/cli.ts -> simulate/simulate.command.ts', 'commands are loaded lazily; simulate has no index.ts yet'],
  ['simulate/ -> synth/', 'synth has no index.ts yet: both folders are being reworked'],
]);

const matches = (pattern: string, file: string) =>
  pattern.endsWith('/') ? file.startsWith(pattern) : file === pattern;
const exceptionFor = (i: { from: string; to: string }) =>
  [...INDEX_EXCEPTIONS.keys()].find((key) => {
    const [from, to] = key.split(' -> ') as [string, string];
    return matches(from, i.from) && matches(to, i.to);
  });

interface Import {
  from: string; // file, relative to src/
  to: string; // file, relative to src/
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|mts|mjs|js|tsx)$/.test(entry.name) ? [full] : [];
  });
}

// Static imports and re-exports (`from '…'`), side-effect imports and dynamic `import('…')`.
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm;

function relativeImports(): Import[] {
  return sourceFiles(SRC).flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    return [...text.matchAll(SPECIFIER)].map((match) => ({
      from: path.relative(SRC, file),
      to: path.relative(SRC, path.resolve(path.dirname(file), match[1] as string)),
    }));
  });
}

/** The top-level entry of src/ a file belongs to: a folder name, or the file itself at the top. */
const unit = (file: string) => file.split(path.sep)[0] as string;
const isCapability = (name: string) => !APP.has(name) && !PLATFORM.has(name) && !name.startsWith('..');

/** A capability's public door: its index.ts, or the index.ts of one of its sub-folders (checks/ocr/). */
const throughIndex = (file: string) => path.basename(file) === 'index.ts';

function capabilityEdges(imports: Import[]): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    const [a, b] = [unit(from), unit(to)];
    if (a === b || !isCapability(a) || !isCapability(b)) continue;
    if (!edges.has(a)) edges.set(a, new Set());
    edges.get(a)?.add(b);
  }
  return edges;
}

/** Edges that lie on a cycle: a → b where b reaches a. */
function cycleEdges(edges: Map<string, Set<string>>): string[] {
  const reaches = (start: string, goal: string) => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length > 0) {
      const node = stack.pop() as string;
      if (node === goal) return true;
      if (seen.has(node)) continue;
      seen.add(node);
      stack.push(...(edges.get(node) ?? []));
    }
    return false;
  };
  const onCycle: string[] = [];
  for (const [a, targets] of edges) {
    for (const b of targets) if (reaches(b, a)) onCycle.push(`${a} -> ${b}`);
  }
  return onCycle.sort();
}

describe('import layers', () => {
  const imports = relativeImports();

  it('finds the imports it checks', () => {
    assert.ok(imports.length > 300, `only ${imports.length} relative imports found`);
    assert.ok(imports.some((i) => unit(i.from) === 'sessions' && unit(i.to) === 'platform'));
  });

  it('platform imports no capability, app or main', () => {
    const upward = imports
      .filter((i) => PLATFORM.has(unit(i.from)) && !PLATFORM.has(unit(i.to)))
      .map((i) => `${i.from} -> ${i.to}`);
    assert.deepEqual(upward, []);
  });

  it('capabilities import neither the app nor main', () => {
    const upward = imports
      .filter((i) => isCapability(unit(i.from)) && APP.has(unit(i.to)))
      .map((i) => `${i.from} -> ${i.to}`);
    assert.deepEqual(upward, []);
  });

  it('a capability is reached from outside only through an index.ts', () => {
    const skipping = imports.filter(
      (i) => unit(i.from) !== unit(i.to) && isCapability(unit(i.to)) && !throughIndex(i.to),
    );
    const unexpected = skipping.filter((i) => !exceptionFor(i)).map((i) => `${i.from} -> ${i.to}`);
    assert.deepEqual(unexpected, [], 'imports that skip the index.ts of another capability');
    const used = new Set(skipping.map(exceptionFor));
    const stale = [...INDEX_EXCEPTIONS.keys()].filter((key) => !used.has(key));
    assert.deepEqual(stale, [], 'exceptions no import needs any more: remove them from the list');
  });

  it('the capability folders import one another without cycles', () => {
    const found = cycleEdges(capabilityEdges(imports));
    const unexpected = found.filter((edge) => !KNOWN_CYCLE_EDGES.has(edge));
    assert.deepEqual(unexpected, [], 'import edges on a cycle between capability folders');
    const gone = [...KNOWN_CYCLE_EDGES.keys()].filter((edge) => !found.includes(edge));
    assert.deepEqual(gone, [], 'known cycle edges no longer on a cycle: remove them from the list');
  });

  it('domain, the vocabulary, imports no capability', () => {
    const fromDomain = imports
      .filter((i) => unit(i.from) === 'domain' && isCapability(unit(i.to)) && unit(i.to) !== 'domain')
      .map((i) => `${i.from} -> ${i.to}`);
    assert.deepEqual(fromDomain, []);
  });
});
