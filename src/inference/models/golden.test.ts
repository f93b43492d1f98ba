import { describe, expect, it } from 'vitest';
import { makeTinyModelSet, computeTinyManifest } from '../onnx/tiny';
import { openSession, openTiny } from '../../testing/inference';
import { compareWithGolden, goldenInputs, runSelfTest, summariseOutput, type GoldenSpec } from './golden';
import { parseManifest } from './manifest';

describe('golden inputs and summaries', () => {
  it('generates deterministic inputs from fills', () => {
    const feeds = goldenInputs({
      inputs: {
        a: { type: 'float32', dims: [2, 2], fill: { kind: 'values', values: [1, 2, 3] } },
        b: { type: 'int64', dims: [3], fill: { kind: 'constant', value: 49407 } },
        c: { type: 'float32', dims: [2], fill: { kind: 'wave', amplitude: 2, offset: 1, frequency: Math.PI / 2 } },
      },
      outputs: {},
    });
    expect([...feeds.a.data]).toEqual([1, 2, 3, 1]);
    expect([...feeds.b.data]).toEqual([49407n, 49407n, 49407n]);
    expect(feeds.c.data[0]).toBeCloseTo(1);
    expect(feeds.c.data[1]).toBeCloseTo(3);
  });

  it('summarises with evenly spaced samples including both ends', () => {
    const s = summariseOutput({ type: 'float32', dims: [10], data: Float32Array.from({ length: 10 }, (_, i) => i) }, 4);
    expect(s).toEqual({ dims: [10], mean: 4.5, samples: [[0, 0], [3, 3], [6, 6], [9, 9]] });
  });

  it('compares within tolerance and reports shape, mean and sample mismatches', () => {
    const t = { type: 'float32' as const, dims: [4], data: Float32Array.from([0, 1, 2, 3]) };
    const spec: GoldenSpec = { inputs: {}, outputs: { y: summariseOutput(t, 4) } };
    expect(compareWithGolden(spec, { y: t }).ok).toBe(true);
    const off = { ...t, data: Float32Array.from([0, 1, 2.1, 3]) };
    const r = compareWithGolden(spec, { y: off });
    expect(r.ok).toBe(false);
    expect(r.failures.join('\n')).toMatch(/y: mean/);
    expect(r.failures.join('\n')).toMatch(/y\[2\]: 2\.09.*expected 2/);
    expect(r.maxAbsError).toBeCloseTo(0.1, 5);
    expect(compareWithGolden(spec, { y: { ...t, dims: [2, 2] } }).failures).toEqual(['y: shape [2,2], expected [4]']);
    expect(compareWithGolden(spec, {}).failures).toEqual(['y: missing from the outputs']);
  });
});

describe('tiny manifest goldens', () => {
  it('are computed by running the models, parse as a manifest, and pass on the same runtime', async () => {
    const set = makeTinyModelSet();
    const manifest = parseManifest(JSON.parse(JSON.stringify(await computeTinyManifest(set, openSession))));
    expect(manifest.models.map((m) => m.id)).toEqual(['tiny-sam', 'tiny-sam-tjs', 'tiny-clip']);
    const sam = manifest.models[0];
    const decoder = await openTiny(sam.files.decoder);
    const r = await runSelfTest(decoder, sam.selfTest.decoder);
    expect(r.failures).toEqual([]);
    expect(r.ok).toBe(true);
    // A model computing something else fails clearly: run the encoder's golden on the tjs encoder.
    const wrong = await openTiny('tjs_vision_encoder.onnx');
    const bad = await runSelfTest(wrong, { ...sam.selfTest.encoder, inputs: { pixel_values: sam.selfTest.encoder.inputs.input_image } });
    expect(bad.ok).toBe(false);
    expect(bad.failures[0]).toMatch(/image_embeddings/);
    // A run that throws is reported, not thrown.
    const broken = await runSelfTest(decoder, sam.selfTest.encoder);
    expect(broken.ok).toBe(false);
    expect(broken.failures[0]).toMatch(/^run failed:/);
  });
});
