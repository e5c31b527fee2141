// Entry of an inference worker thread. Plain JavaScript on purpose: a worker thread does not
// inherit the TypeScript loader that bin/mimoto.js registers in the main thread, so it registers
// tsx itself before loading the TypeScript task (inference.worker.ts).
import { register } from 'tsx/esm/api';

register();
const { default: runInferenceTask } = await import('./inference.worker.ts');
export default runInferenceTask;
