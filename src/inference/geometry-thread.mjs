// Entry of the geometry worker thread; plain JavaScript for the reason given in inference-thread.mjs.
import { register } from 'tsx/esm/api';

register();
const { default: runGeometryTask } = await import('./geometry.worker.ts');
export default runGeometryTask;
