/**
 * An embedding worker thread: loads the ONNX model once, then answers
 * {id, texts} with {id, vectors: Float64Array (texts x 384)} or {id, error}.
 * One job at a time; the pool never sends a second before the first is answered.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadOnnxModel, type OnnxModelOptions } from './onnx-model.js';

interface Job {
  id: number;
  texts: string[];
}

const port = parentPort!;
const ready = loadOnnxModel(workerData as OnnxModelOptions);
ready.catch(() => {}); // reported per job below

port.on('message', async (job: Job) => {
  try {
    const model = await ready;
    const vectors = await model.embed(job.texts);
    port.postMessage({ id: job.id, vectors }, [vectors.buffer as ArrayBuffer]);
  } catch (e) {
    port.postMessage({ id: job.id, error: String((e as Error)?.message ?? e) });
  }
});
