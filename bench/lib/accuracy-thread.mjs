// Entry of an accuracy-bench worker thread. Plain JavaScript on purpose: a worker thread does not
// inherit the TypeScript loader of the main thread, so it registers tsx before loading the task
// (the same arrangement as src/inference/inference-thread.mjs).
import { register } from 'tsx/esm/api';

register();
const { default: runAccuracyTask } = await import('./accuracy-worker.ts');
export default runAccuracyTask;
