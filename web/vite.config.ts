// Build of the hosted flow's browser app: Vite + Preact, served by the
// server at /verify/flow (index.html) and /verify/assets/* (everything else), under a strict CSP —
// so no inline script: the entry is an external module and the preload polyfill is off.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const nodeModules = fileURLToPath(new URL('../node_modules/', import.meta.url));

/** Human's face detector + mesh models and tfjs' wasm binaries, served from our own origin. */
const SELF_HOSTED_FILES: Record<string, string> = {
  'models/blazeface.json': '@vladmandic/human/models/blazeface.json',
  'models/blazeface.bin': '@vladmandic/human/models/blazeface.bin',
  'models/facemesh.json': '@vladmandic/human/models/facemesh.json',
  'models/facemesh.bin': '@vladmandic/human/models/facemesh.bin',
  'wasm/tfjs-backend-wasm.wasm': '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm',
  'wasm/tfjs-backend-wasm-simd.wasm': '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm',
  'wasm/tfjs-backend-wasm-threaded-simd.wasm':
    '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm',
};

function selfHostModels(): Plugin {
  return {
    name: 'mimoto-self-host-models',
    apply: 'build',
    generateBundle() {
      for (const [fileName, source] of Object.entries(SELF_HOSTED_FILES)) {
        this.emitFile({ type: 'asset', fileName, source: readFileSync(nodeModules + source) });
      }
    },
  };
}

export default defineConfig({
  root,
  base: '/verify/assets/',
  plugins: [preact(), selfHostModels()],
  build: {
    outDir: fileURLToPath(new URL('../dist/web/', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'app',
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 4000,
    reportCompressedSize: false,
  },
});
