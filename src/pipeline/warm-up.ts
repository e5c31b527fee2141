// A worker process loads every model the checks use before it takes its first job (models
// load once per worker process), so the first verification after a start is as quick as
// the rest instead of paying seconds of loading: in each inference thread the face nets (run once
// on blank input) and Human's detector, mesh and antispoof/liveness nets; Tesseract with its
// Japanese, English and MRZ data.
import { getOcrEngineFor } from '../checks/ocr/index.ts';
import { warmUpInferencePool } from '../inference/index.ts';

export interface WarmUpReport {
  ms: number;
  inferenceThreads: number;
}

export async function warmUpCheckModels(): Promise<WarmUpReport> {
  const started = performance.now();
  const [inferenceThreads] = await Promise.all([
    warmUpInferencePool(),
    getOcrEngineFor(['jpn']),
    getOcrEngineFor(['eng']),
    getOcrEngineFor(['mrz']),
  ]);
  return { ms: performance.now() - started, inferenceThreads };
}
