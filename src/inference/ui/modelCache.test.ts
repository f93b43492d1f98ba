import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { tinyFiles } from '../../testing/inference';
import { loadCachedModels, ModelDb, removeModel, saveModel } from './modelCache';
import type { PickedModel } from './pickedModels';

const newDb = () => new ModelDb('spoc-models-test', { indexedDB: new IDBFactory(), IDBKeyRange });

const sam = (id = 'sam'): PickedModel => ({
  id,
  family: 'sam-official',
  label: 'SAM',
  files: {
    encoder: { name: 'sam_encoder.onnx', bytes: tinyFiles()['sam_encoder.onnx'] },
    decoder: { name: 'sam_decoder.onnx', bytes: tinyFiles()['sam_decoder.onnx'] },
  },
});

describe('model cache (spoc-models)', () => {
  it('keeps picked files byte for byte, with family and roles, and replaces a model of the same id', async () => {
    const db = newDb();
    await saveModel(db, sam());
    await saveModel(db, sam()); // same id: replaced, not duplicated
    await saveModel(db, sam('other'));
    const { models, problems } = await loadCachedModels(db);
    expect(problems).toEqual([]);
    expect(models.map((m) => m.id)).toEqual(['other', 'sam']);
    expect(models[1].family).toBe('sam-official');
    expect(models[1].files.decoder.name).toBe('sam_decoder.onnx');
    expect(Buffer.from(models[1].files.decoder.bytes).equals(Buffer.from(tinyFiles()['sam_decoder.onnx']))).toBe(true);
    expect(await db.files.count()).toBe(4);
    await removeModel(db, 'other');
    expect((await loadCachedModels(db)).models.map((m) => m.id)).toEqual(['sam']);
    expect(await db.files.count()).toBe(2);
    db.close();
  });

  it('skips (and reports) a model whose file went missing', async () => {
    const db = newDb();
    await saveModel(db, sam());
    await db.files.delete('sam/encoder');
    const { models, problems } = await loadCachedModels(db);
    expect(models).toEqual([]);
    expect(problems).toEqual(['sam: cached encoder file is missing']);
    db.close();
  });
});
