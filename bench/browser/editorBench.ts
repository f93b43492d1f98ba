/**
 * Seeds clips for the editor benchmark (runs in the page): a 1920x1080 clip for painting and a
 * 300-frame 1280x720 clip for frame switching, with masks on every frame.
 */
import { createDemoClip } from '../../src/demo/generator';
import { encodeLayer } from '../../src/masks/layers';
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
