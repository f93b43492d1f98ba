/**
 * Automatic proposals on one frame (SAM 32x32 grid -> NMS in the worker's code -> CLIP scores), with
 * the tiny test models run by onnxruntime in Node, one core. The tiny SAM draws large discs around
 * every point, so nearly all 4096 masks survive the area filter and overlap: the worst case for NMS
 * and for CLIP crops. Model time is printed apart from our own work.
 * Run: npm run bench proposals
 */
import { proposeFrame } from '../src/inference/prelabel/frameProposals';
import { inProcessClient, solidImage, tinyFiles } from '../src/testing/inference';

const bytes = (path: string) => ({ bytes: tinyFiles()[path].slice() });
const client = inProcessClient();
await client.load({ modelId: 'sam', family: 'sam-official', files: { encoder: bytes('sam_encoder.onnx'), decoder: bytes('sam_decoder.onnx') } });
await client.load({ modelId: 'clip', family: 'clip', files: { vision: bytes('clip_vision.onnx'), text: bytes('clip_text.onnx'), tokenizer: bytes('clip_tokenizer.json') } });

const rows = [];
for (const [w, h, grid] of [
  [640, 360, 16],
  [1280, 720, 32],
] as const) {
  const r = await proposeFrame(client, solidImage(w, h, [180, 40, 40]), {
    sam: 'sam',
    clip: { modelId: 'clip', actionable: 'red apple', transformed: 'green apple' },
    gridSize: grid,
    frameKey: `${w}x${h}`,
  });
  const t = r.timings;
  rows.push({
    frame: `${w}x${h}`,
    grid: `${grid}x${grid}`,
    'kept / decoded': `${r.proposals.length} / ${r.decoded}`,
    'total ms': t.totalMs.toFixed(0),
    'SAM decoder runs': t.decoderModelMs.toFixed(0),
    NMS: t.nmsMs.toFixed(0),
    'CLIP ms': t.clipMs.toFixed(0),
    'own ms (crops)': `${t.ownMs.toFixed(0)} (${t.cropMs.toFixed(0)})`,
  });
}
console.table(rows);
client.destroy();
