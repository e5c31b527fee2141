// One TensorFlow.js runtime per process, on the WebAssembly backend.
// docs/decisions.md: @tensorflow/tfjs-node downloads a binary at install, so we use tfjs-backend-wasm,
// whose .wasm files ship inside the npm package (no network at run time).
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { installShortRowConcat } from './wasm-concat.ts';

const require = createRequire(import.meta.url);

let ready: Promise<typeof tf> | undefined;

/** Initialise tfjs on the wasm backend once; later calls share the same promise. */
export function loadTfjs(): Promise<typeof tf> {
  ready ??= (async () => {
    const wasmDir = path.dirname(
      require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'),
    );
    setWasmPaths(`${wasmDir}${path.sep}`);
    await tf.setBackend('wasm');
    await tf.ready();
    installShortRowConcat(tf);
    return tf;
  })();
  return ready;
}
