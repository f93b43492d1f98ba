import { describe, expect, it } from 'vitest';
import { parseManifest } from '../models/manifest';
import { loadParamsFromManifest } from './fromManifest';

describe('loadParamsFromManifest', () => {
  it('resolves file paths against the manifest URL and carries the self-tests', () => {
    const [entry] = parseManifest({
      version: 1,
      models: [{ id: 'tiny-sam', family: 'sam-official', files: { encoder: 'sam_encoder.onnx', decoder: 'sub/dec.onnx' } }],
    }).models;
    expect(loadParamsFromManifest(entry, 'http://localhost:5173/models/tiny/manifest.json')).toEqual({
      modelId: 'tiny-sam',
      family: 'sam-official',
      files: {
        encoder: { url: 'http://localhost:5173/models/tiny/sam_encoder.onnx' },
        decoder: { url: 'http://localhost:5173/models/tiny/sub/dec.onnx' },
      },
      selfTest: {},
    });
  });
});
