// The line recogniser's thread: PaddleOCR's Japanese recogniser on onnxruntime-node (the native
// CPU runtime the package carries, one intra-op thread: ~20 ms of CPU a line, where its wasm build
// took ~90), off any event loop that serves requests.
// Plain JavaScript: a worker thread does not inherit the main thread's TypeScript loader, and
// this file needs none. It takes a line already scaled and normalised (line-recogniser.ts) and
// answers the CTC path's best class and its probability at each step.
import { parentPort, workerData } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';

// One thread, run sequentially: a line costs one core's time, and the same line gives the same
// probabilities on a loaded machine as on an idle one.
const session = await ort.InferenceSession.create(workerData.modelFile, {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
});
const inputName = session.inputNames[0];

parentPort.on('message', async ({ id, pixels, height, width }) => {
  try {
    const outputs = await session.run({
      [inputName]: new ort.Tensor('float32', pixels, [1, 3, height, width]),
    });
    const out = outputs[session.outputNames[0]];
    const [, steps, classes] = out.dims;
    const probabilities = out.data;
    const best = new Int32Array(steps);
    const probability = new Float32Array(steps);
    for (let t = 0; t < steps; t++) {
      let c = 0;
      let p = -1;
      const row = t * classes;
      for (let k = 0; k < classes; k++) {
        const v = probabilities[row + k];
        if (v > p) {
          p = v;
          c = k;
        }
      }
      best[t] = c;
      probability[t] = p;
    }
    parentPort.postMessage({ id, best, probability }, [best.buffer, probability.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
parentPort.postMessage({ ready: true });
