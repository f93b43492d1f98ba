import { describe, expect, it } from 'vitest';
import { onnxSignature } from '../models/onnxSignature';
import { computeTinyManifest, makeTinyModelSet } from '../onnx/tiny';
import { openSession, tinyFiles } from '../../testing/inference';
import { groupPickedFiles, type PickedFile } from './pickedModels';

const picked = (names: string[]): PickedFile[] => names.map((name) => ({ name, bytes: tinyFiles()[name] }));
const ONNX = ['sam_encoder.onnx', 'sam_decoder.onnx', 'tjs_vision_encoder.onnx', 'tjs_prompt_encoder_mask_decoder.onnx', 'clip_vision.onnx', 'clip_text.onnx'];

describe('onnxSignature', () => {
  it('reads the same input and output names as onnxruntime', async () => {
    for (const name of ONNX) {
      const session = await openSession(tinyFiles()[name]);
      expect(onnxSignature(tinyFiles()[name]), name).toEqual({ inputNames: [...session.inputNames], outputNames: [...session.outputNames] });
    }
  });

  it('refuses bytes that are not a model', () => {
    expect(() => onnxSignature(new TextEncoder().encode('{"hello": 1}'))).toThrow(RangeError);
  });
});

describe('groupPickedFiles', () => {
  it('recognises bare ONNX files by signature and groups them by family (CLIP takes the tokenizer)', () => {
    const { models, problems } = groupPickedFiles(picked([...ONNX, 'clip_tokenizer.json']));
    expect(problems).toEqual([]);
    expect(models.map((m) => [m.id, m.family, Object.keys(m.files).sort().join(',')])).toEqual([
      ['sam-official', 'sam-official', 'decoder,encoder'],
      ['sam-transformersjs', 'sam-transformersjs', 'decoder,encoder'],
      ['clip', 'clip', 'text,tokenizer,vision'],
    ]);
    expect(models[0].files.decoder.name).toBe('sam_decoder.onnx');
  });

  it('uses a picked manifest: its ids and goldens, files matched by name', async () => {
    const set = makeTinyModelSet();
    const manifest = await computeTinyManifest(set, openSession);
    const files = [...picked(ONNX), { name: 'manifest.json', bytes: new TextEncoder().encode(JSON.stringify(manifest)) }];
    const { models, problems } = groupPickedFiles(files);
    expect(problems[0]).toBe('tiny-clip: clip_tokenizer.json not picked');
    expect(models.map((m) => m.id)).toEqual(['tiny-sam', 'tiny-sam-tjs']);
    expect(models[0].selfTest?.decoder).toBeDefined();
  });

  it('says what is missing or unknown', () => {
    const { models, problems } = groupPickedFiles([...picked(['sam_decoder.onnx']), { name: 'notes.onnx', bytes: Uint8Array.from([1, 2, 3]) }]);
    expect(models).toEqual([]);
    expect(problems.join('\n')).toMatch(/notes\.onnx/);
    expect(problems.join('\n')).toMatch(/SAM: encoder missing/);
  });
});
