/**
 * Seeds clips for the editor benchmark (runs in the page): a 1920x1080 clip for painting and a
 * 300-frame 1280x720 clip for frame switching, with masks on every frame.
 */
import { createDemoClip } from '../../src/demo/generator';
import { createLabelMap } from '../../src/masks/labelMap';
import { encodeLayer } from '../../src/masks/layers';
import { masksFromOwnerMap, ObjectSlots } from '../../src/masks/ownerMap';
import { createClipObject } from '../../src/store/objects';
import { openSpocDb } from '../../src/store/db';
import { createProject } from '../../src/store/projects';
import { commitClipImports, type ClipImportDraft } from '../../src/store/importCommit';

async function seedClip(projectId: string, name: string, width: number, height: number, frames: number): Promise<string> {
  const clip = createDemoClip({ seed: 17, kind: 'peeling', width, height, durationSec: frames });
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  const draftFrames = [];
  const layers = [];
  let image: Blob | null = null;
  let masks = encodeLayer(clip.groundTruthAt(0));
  for (let k = 0; k < frames; k++) {
    // Ten distinct pictures, repeated: the benchmark measures the editor, not the generator.
    if (k < 10) {
      const img = clip.renderAt(k * (frames / 10), { frameIndex: k });
      ctx.putImageData(new ImageData(new Uint8ClampedArray(img.data), width, height), 0, 0);
      image = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
      masks = encodeLayer(clip.groundTruthAt(k * (frames / 10)));
    }
    draftFrames.push({ timestampSec: k, image: image!, mime: 'image/jpeg' });
    layers.push({ frameIndex: k, source: 'gt' as const, ...masks, provenance: { kind: 'demo' as const, by: 'bench', at: Date.now() } });
  }
  const draft: ClipImportDraft = {
    projectId,
    clip: {
      projectId, name, width, height, frameCount: frames, sampleFps: 1,
      source: { kind: 'demo', fileName: name }, osc: { verb: 'peeling', noun: 'potato', actionable: 'unpeeled potato', transformed: 'peeled potato' },
      subset: 'seen', status: 'in_progress',
    },
    frames: draftFrames,
    layers,
  };
  const [stored] = await commitClipImports(await openSpocDb(), [draft]);
  return stored.id;
}

export async function seedEditorBench(): Promise<{ paintClip: string; switchClip: string }> {
  const db = await openSpocDb();
  const project = await createProject(db, { name: 'editor bench' });
  const paintClip = await seedClip(project.id, 'paint 1080p', 1920, 1080, 3);
  const switchClip = await seedClip(project.id, 'switch 720p x300', 1280, 720, 300);
  return { paintClip, switchClip };
}

/**
 * An objects project's 1080p clip whose frames hold 20 objects (a 5x4 grid of blocks, each block
 * its own object), for painting with many objects (docs/objects.md): the editor then paints through
 * the objects codec with 20 colours on the canvas.
 */
export async function seedObjectsBench(objectCount = 20): Promise<string> {
  const db = await openSpocDb();
  const project = await createProject(db, { name: 'objects bench', kind: 'objects' });
  const [width, height, frames] = [1920, 1080, 3];
  const ids = Array.from({ length: objectCount }, () => crypto.randomUUID());
  const slots = new ObjectSlots();
  const owners = createLabelMap(width, height);
  const [cols, rows] = [5, Math.ceil(objectCount / 5)];
  const [bw, bh] = [Math.floor(width / cols), Math.floor(height / rows)];
  ids.forEach((id, i) => {
    const slot = slots.slotOf(id);
    const [x0, y0] = [(i % cols) * bw, Math.floor(i / cols) * bh];
    // Blocks with gaps between them, so strokes cross background and other objects alike.
    for (let y = y0 + 20; y < y0 + bh - 20; y++) owners.data.fill(slot, y * width + x0 + 20, y * width + x0 + bw - 20);
  });
  const objects = masksFromOwnerMap(owners, slots).map(({ id, rle, area }) => ({ id, rle, area }));
  const masks = encodeLayer({ ...owners, data: owners.data.map((v) => (v === 0 ? 0 : 1)) });
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  ctx.fillStyle = '#556070';
  ctx.fillRect(0, 0, width, height);
  const image = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
  const name = `paint 1080p ${objectCount} objects`;
  const draft: ClipImportDraft = {
    projectId: project.id,
    clip: { projectId: project.id, name, width, height, frameCount: frames, sampleFps: 1, source: { kind: 'demo', fileName: name }, osc: { verb: 'cutting', noun: 'board', actionable: '', transformed: '' }, subset: 'seen', status: 'in_progress' },
    frames: Array.from({ length: frames }, (_, k) => ({ timestampSec: k, image, mime: 'image/jpeg' })),
    layers: Array.from({ length: frames }, (_, k) => ({ frameIndex: k, source: 'gt' as const, ...masks, objects, provenance: { kind: 'demo' as const, by: 'bench', at: Date.now() } })),
  };
  const [stored] = await commitClipImports(db, [draft]);
  for (const id of ids) await createClipObject(db, { clipId: stored.id, by: 'bench', id });
  return stored.id;
}
