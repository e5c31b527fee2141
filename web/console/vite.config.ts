// Build of the console's browser app: Vite + Preact, served by the server at
// /console and every page path below it (index.html) and /console/assets/* (everything else), under
// the same strict CSP as the hosted flow — no inline script, so the preload polyfill is off.
import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/assets/',
  plugins: [preact()],
  build: {
    outDir: fileURLToPath(new URL('../../dist/console/', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'app',
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
