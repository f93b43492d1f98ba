/**
 * Broken and hostile input through the real CLI (`main` in-process): every case must end with exit
 * code 1 and one line on stderr that names the offending file (as the user would find it, below the
 * folder given on the command line) and the problem in plain words; no "internal error", no stack
 * trace, nothing on stdout and nothing in the output folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, mkdir, readdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  H,
  VIDEO,
  W,
  bytesOf,
  copyFixture,
  corruptBody,
  editJson,
  gray16Png,
  jpeg,
  jpegDeclaring,
  labelPng,
  makeTemplate,
  oddColourPng,
  pngDeclaring,
  put,
  runCliAsNobody,
  nobodyCanRunCli,
  type Fixture,
} from './hostileFixture';
import { runCli, tempDir } from './testing';
import { execFileSync } from 'node:child_process';

type Run = 'eval' | 'convert' | 'coco' | 'visor';

const ARGV: Record<Run, (fx: Fixture) => string[]> = {
  eval: () => ['eval', '--gt', 'in', '--pred', 'in', '--json', 'out/report.json'],
  convert: () => ['convert', '--from', 'wtc', '--to', 'davis', 'in', 'out'],
  coco: (fx) => ['convert', '--from', 'coco', '--to', 'davis', fx.coco, 'out'],
  visor: () => ['convert', '--from', 'visor', '--to', 'davis', 'visor', 'out'],
};

interface HostileCase {
  name: string;
  runs: Run[];
  setup: (fx: Fixture) => Promise<void>;
  /** The file stderr must name. */
  file: (fx: Fixture) => string;
  /** Words stderr must contain (a function when they hold a path of the case). */
  problem: string | ((fx: Fixture) => string);
  /** Run the binary as the user "nobody" (see runCliAsNobody). */
  asNobody?: boolean;
}

const isRoot = process.getuid?.() === 0;
const metaFrames = (doc: Record<string, unknown>) => doc.frames as Record<string, unknown>[];

/** Replaces `rel` by a symbolic link to `target` (made absolute against the case folder when relative to it). */
async function linkAt(fx: Fixture, rel: string, target: string): Promise<void> {
  await rm(fx.abs(rel), { recursive: true, force: true });
  await mkdir(path.dirname(fx.abs(rel)), { recursive: true });
  await symlink(target, fx.abs(rel));
}

/** A copy of `rel` outside the input folder, and a link to it in its place. */
async function linkOutside(fx: Fixture, rel: string): Promise<void> {
  const outside = path.join(fx.root, 'outside', path.basename(rel));
  await mkdir(path.dirname(outside), { recursive: true });
  const { cp } = await import('node:fs/promises');
  await cp(fx.abs(rel), outside, { recursive: true });
  await linkAt(fx, rel, outside);
}

const MASK_CASES: HostileCase[] = [
  { name: 'truncated mask PNG', runs: ['eval', 'convert'], setup: async (fx) => put(fx, fx.gtMask(1), (await bytesOf(fx, fx.gtMask(1))).slice(0, 60)), file: (fx) => fx.gtMask(1), problem: 'truncated PNG' },
  { name: 'mask PNG with a corrupt body (CRC)', runs: ['eval', 'convert'], setup: async (fx) => put(fx, fx.gtMask(0), corruptBody(await bytesOf(fx, fx.gtMask(0)))), file: (fx) => fx.gtMask(0), problem: 'corrupt PNG' },
  { name: 'text saved as .png', runs: ['eval', 'convert'], setup: (fx) => put(fx, fx.gtMask(2), 'not a picture\n'), file: (fx) => fx.gtMask(2), problem: 'not a PNG (bad signature)' },
  { name: '16-bit grayscale mask', runs: ['eval', 'convert'], setup: (fx) => put(fx, fx.gtMask(1), gray16Png()), file: (fx) => fx.gtMask(1), problem: '16-bit grayscale is not a label mask' },
  { name: 'RGB mask in a colour that is no label', runs: ['eval', 'convert'], setup: (fx) => put(fx, fx.gtMask(1), oddColourPng()), file: (fx) => fx.gtMask(1), problem: 'colour #0c2238 at (x=0, y=0) is not a label colour' },
  { name: 'label 7 in a GT mask', runs: ['convert'], setup: (fx) => put(fx, fx.gtMask(1), labelPng(7)), file: (fx) => fx.gtMask(1), problem: 'unknown label 7 at (x=0, y=0)' },
  { name: 'label 7 in a GT mask (eval points to --task vos)', runs: ['eval'], setup: (fx) => put(fx, fx.gtMask(1), labelPng(7)), file: (fx) => fx.gtMask(1), problem: 'holds labels 7: 7 is not a SPOC label (label 7 first at x=0, y=0)' },
  { name: 'label 6 in a prediction', runs: ['eval'], setup: (fx) => put(fx, fx.predMask(2), labelPng(6)), file: (fx) => fx.predMask(2), problem: 'holds labels 6: 6 is not a SPOC label (label 6 first at x=0, y=0)' },
  { name: 'label 255 in a WhereToChange mask (release labels are 0..5)', runs: ['convert'], setup: (fx) => put(fx, fx.gtMask(0), labelPng(255)), file: (fx) => fx.gtMask(0), problem: 'unknown label 255 at (x=0, y=0); allowed 0,1,2,3,4,5' },
  { name: 'mask declaring 9000x9000', runs: ['eval', 'convert'], setup: async (fx) => put(fx, fx.gtMask(1), pngDeclaring(await bytesOf(fx, fx.gtMask(1)), 9000, 9000)), file: (fx) => fx.gtMask(1), problem: 'declared size 9000x9000 exceeds the limit of 8192 px per side' },
  { name: 'prediction of another size than the GT', runs: ['eval'], setup: (fx) => put(fx, fx.predMask(1), labelPng(0, 16, 12)), file: (fx) => fx.predMask(1), problem: `is 16x12 but the GT mask` },
  { name: 'mask of another size than its frame', runs: ['convert'], setup: (fx) => put(fx, fx.gtMask(1), labelPng(1, 16, 12)), file: (fx) => fx.gtMask(1), problem: `size 16x12 does not match the frame size ${W}x${H}` },
];

const FRAME_CASES: HostileCase[] = [
  { name: 'frame JPEG that is text', runs: ['convert'], setup: (fx) => put(fx, fx.frame(1), 'hello, I am not a JPEG'), file: (fx) => fx.frame(1), problem: 'is not a readable image' },
  { name: 'first frame JPEG that is text', runs: ['convert'], setup: (fx) => put(fx, fx.frame(0), 'hello, I am not a JPEG'), file: (fx) => fx.frame(0), problem: 'is not a readable image' },
  { name: 'truncated frame JPEG', runs: ['convert'], setup: async (fx) => put(fx, fx.frame(2), (await bytesOf(fx, fx.frame(2))).slice(0, 3)), file: (fx) => fx.frame(2), problem: 'is not a readable image' },
  { name: 'frame of another size than the others', runs: ['convert'], setup: (fx) => put(fx, fx.frame(2), jpeg(16, 12)), file: (fx) => fx.frame(2), problem: `is 16x12 but the clip's metadata or masks say ${W}x${H}` },
  { name: 'first frame of another size than the others', runs: ['convert'], setup: (fx) => put(fx, fx.frame(0), jpeg(16, 12)), file: (fx) => fx.frame(0), problem: `is 16x12 but the clip's metadata or masks say ${W}x${H}` },
  {
    // Without a size in the metadata the first frame gives the clip's size (as in the app), so the
    // first mask is the file found wrong; the message names the frame the size came from.
    name: 'first frame of another size than the masks, no size in the metadata',
    runs: ['convert'],
    setup: async (fx) => {
      await put(fx, fx.frame(0), jpeg(16, 12));
      await editJson(fx, fx.meta, (d) => void (delete d.width, delete d.height));
    },
    file: (fx) => fx.gtMask(0),
    problem: (fx) => `size ${W}x${H} does not match the frame size 16x12 (as given by ${fx.frame(0).slice('in/'.length)})`,
  },
  { name: 'frame JPEG declaring 60000x60000', runs: ['convert'], setup: (fx) => put(fx, fx.frame(1), jpegDeclaring(60000, 60000)), file: (fx) => fx.frame(1), problem: 'declares a size of 60000x60000; the limit is 1..8192 px per side' },
  { name: 'frame image that is a folder', runs: ['convert'], setup: async (fx) => { await rm(fx.abs(fx.frame(1))); await mkdir(fx.abs(fx.frame(1))); }, file: (fx) => fx.frame(1), problem: 'is a folder' },
];

const META_CASES: HostileCase[] = [
  { name: 'metadata that is not JSON', runs: ['eval', 'convert'], setup: (fx) => put(fx, fx.meta, '{"version": 1, "frames": ['), file: (fx) => fx.meta, problem: 'is not valid JSON (' },
  { name: 'metadata that is not UTF-8', runs: ['eval', 'convert'], setup: (fx) => put(fx, fx.meta, Uint8Array.of(0x7b, 0xff, 0xfe, 0x7d)), file: (fx) => fx.meta, problem: 'is not UTF-8 text' },
  { name: 'metadata that is an array', runs: ['eval', 'convert'], setup: (fx) => put(fx, fx.meta, '[]'), file: (fx) => fx.meta, problem: 'must be an object, got an array of length 0' },
  { name: 'metadata from a newer version', runs: ['eval', 'convert'], setup: (fx) => editJson(fx, fx.meta, (d) => void (d.version = 2)), file: (fx) => fx.meta, problem: 'version is 2; this app reads version 1' },
  { name: 'metadata without verb', runs: ['eval', 'convert'], setup: (fx) => editJson(fx, fx.meta, (d) => void delete d.verb), file: (fx) => fx.meta, problem: 'verb is missing' },
  { name: 'metadata with a negative fps', runs: ['eval', 'convert'], setup: (fx) => editJson(fx, fx.meta, (d) => void (d.fps = -1)), file: (fx) => fx.meta, problem: 'fps is -1; it must be between 0 and 1000' },
  { name: 'metadata for another video', runs: ['eval', 'convert'], setup: (fx) => editJson(fx, fx.meta, (d) => void (d.video = 'other')), file: (fx) => fx.meta, problem: `video is "other" but the file describes the video folder "${VIDEO}"` },
  { name: 'metadata timestamp as text', runs: ['eval', 'convert'], setup: (fx) => editJson(fx, fx.meta, (d) => void (metaFrames(d)[0].timestamp_sec = 'zero')), file: (fx) => fx.meta, problem: 'frames[0].timestamp_sec must be a finite number, got string "zero"' },
  { name: 'metadata phase that is not one of the three', runs: ['eval', 'convert'], setup: (fx) => editJson(fx, fx.meta, (d) => void (metaFrames(d)[1].phase = 'transition')), file: (fx) => fx.meta, problem: 'frames[1].phase must be one of "initial", "transitioning", "end", got string "transition"' },
  { name: 'metadata ignore that is not an object', runs: ['eval', 'convert'], setup: (fx) => editJson(fx, fx.meta, (d) => void (metaFrames(d)[0].ignored = true)), file: (fx) => fx.meta, problem: 'frames[0].ignored must be an object, got boolean true' },
  { name: 'metadata with a frame name twice', runs: ['eval', 'convert'], setup: (fx) => editJson(fx, fx.meta, (d) => void (metaFrames(d)[1].name = 'FRAME0000')), file: (fx) => fx.meta, problem: 'frames[1].name "FRAME0000" is also the name of frames[0]' },
  { name: 'metadata frame name with a path', runs: ['eval', 'convert'], setup: (fx) => editJson(fx, fx.meta, (d) => void (metaFrames(d)[1].name = '../x')), file: (fx) => fx.meta, problem: 'frames[1].name "../x" contains a character not allowed in file names' },
  { name: 'metadata size that is not the masks\' size', runs: ['eval', 'convert'], setup: (fx) => editJson(fx, fx.meta, (d) => void Object.assign(d, { width: 64, height: 48 })), file: (fx) => fx.gtMask(0), problem: `size ${W}x${H} does not match the frame size 64x48` },
  { name: 'metadata that is a folder', runs: ['eval', 'convert'], setup: async (fx) => { await rm(fx.abs(fx.meta)); await mkdir(fx.abs(fx.meta)); }, file: (fx) => fx.meta, problem: 'is a folder' },
];

const TREE_CASES: HostileCase[] = [
  { name: 'empty input folder', runs: ['eval', 'convert'], setup: async (fx) => { await rm(fx.abs('in'), { recursive: true }); await mkdir(fx.abs('in')); }, file: () => 'in', problem: 'no' },
  { name: 'mask that is a folder', runs: ['eval', 'convert'], setup: async (fx) => { await rm(fx.abs(fx.gtMask(1))); await mkdir(fx.abs(fx.gtMask(1))); }, file: (fx) => fx.gtMask(1), problem: 'is a folder' },
  { name: 'mask linked to a file outside the input', runs: ['eval', 'convert'], setup: (fx) => linkOutside(fx, fx.gtMask(0)), file: (fx) => fx.gtMask(0), problem: 'is a symbolic link that leads outside in' },
  { name: 'video folder linked outside the input', runs: ['eval', 'convert'], setup: (fx) => linkOutside(fx, `in/${fx.osc}/gt/masks/${VIDEO}`), file: (fx) => `in/${fx.osc}/gt/masks/${VIDEO}`, problem: 'is a symbolic link that leads outside in' },
  { name: 'masks folder linked outside the input', runs: ['eval', 'convert'], setup: (fx) => linkOutside(fx, `in/${fx.osc}/gt/masks`), file: (fx) => `in/${fx.osc}/gt/masks`, problem: 'is a symbolic link that leads outside in' },
  { name: 'metadata linked outside the input', runs: ['eval', 'convert'], setup: (fx) => linkOutside(fx, fx.meta), file: (fx) => fx.meta, problem: 'is a symbolic link that leads outside in' },
  { name: 'folder link back to its parent (a loop)', runs: ['eval', 'convert'], setup: (fx) => linkAt(fx, `in/${fx.osc}/gt/masks/${VIDEO}/again`, '..'), file: (fx) => `in/${fx.osc}/gt/masks/${VIDEO}/again`, problem: 'is a symbolic link loop' },
  { name: 'link to itself', runs: ['eval', 'convert'], setup: (fx) => linkAt(fx, fx.gtMask(2), path.basename(fx.gtMask(2))), file: (fx) => fx.gtMask(2), problem: 'is a symbolic link loop' },
  { name: 'broken link', runs: ['eval', 'convert'], setup: (fx) => linkAt(fx, fx.gtMask(1), 'gone.png'), file: (fx) => fx.gtMask(1), problem: 'is a broken symbolic link' },
  // Root reads any file whatever its mode: as root, this case runs the binary as "nobody".
  { name: 'unreadable mask (chmod 000)', runs: ['eval', 'convert'], setup: (fx) => chmod(fx.abs(fx.gtMask(1)), 0), file: (fx) => fx.gtMask(1), problem: 'cannot read', asNobody: isRoot },
  { name: 'unreadable video folder (chmod 000)', runs: ['eval', 'convert'], setup: (fx) => chmod(fx.abs(`in/${fx.osc}/gt/masks/${VIDEO}`), 0), file: (fx) => `in/${fx.osc}/gt/masks/${VIDEO}`, problem: 'cannot read the folder', asNobody: isRoot },
  {
    name: 'two folder links pointing at each other (a loop)',
    runs: ['eval', 'convert'],
    setup: async (fx) => {
      await mkdir(fx.abs('in/loop_a'));
      await mkdir(fx.abs('in/loop_b'));
      await symlink('../loop_b', fx.abs('in/loop_a/to_b'));
      await symlink('../loop_a', fx.abs('in/loop_b/to_a'));
    },
    file: () => 'in/loop_a/to_b/to_a',
    problem: 'is a symbolic link loop: it points back to in/loop_a, a folder that contains it',
  },
  { name: 'mask that is a named pipe', runs: ['eval', 'convert'], setup: async (fx) => { await rm(fx.abs(fx.gtMask(1))); execFileSync('mkfifo', [fx.abs(fx.gtMask(1))]); }, file: (fx) => fx.gtMask(1), problem: 'is not a regular file' },
];

const COCO_CASES: HostileCase[] = [
  { name: 'COCO counts that do not sum to h*w', runs: ['coco'], setup: (fx) => editJson(fx, fx.coco, (d) => void Object.assign((d.annotations as Record<string, Record<string, unknown>>[])[0].segmentation, { counts: [5, 5] })), file: (fx) => fx.coco, problem: `annotations[0].segmentation.counts sums to 10, expected ${W}*${H}=${W * H}` },
  { name: 'COCO negative count', runs: ['coco'], setup: (fx) => editJson(fx, fx.coco, (d) => void Object.assign((d.annotations as Record<string, Record<string, unknown>>[])[0].segmentation, { counts: [W * H + 1, -1] })), file: (fx) => fx.coco, problem: 'annotations[0].segmentation.counts[1] must be a non-negative integer, got number -1' },
  { name: 'COCO counts string with a bad character', runs: ['coco'], setup: (fx) => editJson(fx, fx.coco, (d) => void Object.assign((d.annotations as Record<string, Record<string, unknown>>[])[0].segmentation, { counts: 'ab{c' })), file: (fx) => fx.coco, problem: 'RLE counts string has an invalid character "{"' },
  { name: 'COCO segmentation size of another image', runs: ['coco'], setup: (fx) => editJson(fx, fx.coco, (d) => void Object.assign((d.annotations as Record<string, Record<string, unknown>>[])[0].segmentation, { size: [10, 10] })), file: (fx) => fx.coco, problem: 'annotations[0].segmentation.size is [10, 10]' },
  { name: 'COCO negative image width', runs: ['coco'], setup: (fx) => editJson(fx, fx.coco, (d) => void ((d.images as Record<string, unknown>[])[0].width = -32)), file: (fx) => fx.coco, problem: 'images[0].width is -32; it must be between 1 and 8192' },
  { name: 'COCO without images', runs: ['coco'], setup: (fx) => editJson(fx, fx.coco, (d) => void delete d.images), file: (fx) => fx.coco, problem: 'images is missing' },
  { name: 'COCO truncated', runs: ['coco'], setup: async (fx) => put(fx, fx.coco, (await bytesOf(fx, fx.coco)).slice(0, 50)), file: (fx) => fx.coco, problem: 'is not valid JSON (' },
];

const visorSegments = (d: Record<string, unknown>) => ((d.video_annotations as Record<string, unknown>[])[0].annotations as Record<string, unknown>[])[0];
const VISOR_CASES: HostileCase[] = [
  { name: 'VISOR point with three numbers', runs: ['visor'], setup: (fx) => editJson(fx, fx.visor, (d) => void (visorSegments(d).segments = [[[1, 2, 3], [4, 5], [6, 1]]])), file: (fx) => fx.visor, problem: 'video_annotations[0].annotations[0].segments[0][0] must be a point [x, y], got an array of length 3' },
  { name: 'VISOR coordinate that is text', runs: ['visor'], setup: (fx) => editJson(fx, fx.visor, (d) => void (visorSegments(d).segments = [[[1, 'NaN'], [4, 5], [6, 1]]])), file: (fx) => fx.visor, problem: 'segments[0][0][1] must be a finite number, got string "NaN"' },
  { name: 'VISOR segments not an array', runs: ['visor'], setup: (fx) => editJson(fx, fx.visor, (d) => void (visorSegments(d).segments = 'x')), file: (fx) => fx.visor, problem: 'segments must be an array, got string "x"' },
  { name: 'VISOR without video_annotations', runs: ['visor'], setup: (fx) => editJson(fx, fx.visor, (d) => void delete d.video_annotations), file: (fx) => fx.visor, problem: 'video_annotations is missing' },
];

const ALL_CASES = [...MASK_CASES, ...FRAME_CASES, ...META_CASES, ...TREE_CASES, ...COCO_CASES, ...VISOR_CASES].flatMap((c) =>
  c.runs.map((run) => ({ ...c, run, title: `${run}: ${c.name}` })),
);
// As root the unreadable-file cases need "nobody", who must be able to reach this checkout.
const NOBODY_OK = !isRoot || nobodyCanRunCli();
const CASES = ALL_CASES.filter((c) => !c.asNobody || NOBODY_OK);

let base: string;
let template: Fixture;
let cleanup: () => Promise<void>;
let caseNo = 0;

beforeAll(async () => {
  ({ dir: base, cleanup } = await tempDir('spoc-cli-hostile-'));
  await chmod(base, 0o755); // so that "nobody" can enter the case folders
  template = await makeTemplate(path.join(base, 'template'));
});
afterAll(() => cleanup());

async function outputEntries(fx: Fixture): Promise<string[]> {
  try {
    return await readdir(fx.abs('out'), { recursive: true });
  } catch {
    return [];
  }
}

describe('spoc-studio on broken and hostile input', () => {
  it('accepts the untouched dataset in every form (so each case fails for its own defect)', async () => {
    const fx = await copyFixture(template, path.join(base, 'ok'));
    for (const run of ['eval', 'convert', 'coco', 'visor'] as const) {
      const r = await runCli(ARGV[run](fx), fx.root);
      expect(r.code, `${run}: ${r.stderr}`).toBe(0);
      await rm(fx.abs('out'), { recursive: true, force: true });
    }
  });

  it.skipIf(NOBODY_OK)('unreadable-file cases: skipped, the user "nobody" cannot reach this checkout (a private folder)', () => undefined);

  it.each(CASES)('$title', async (c) => {
    const fx = await copyFixture(template, path.join(base, `case-${++caseNo}`));
    await c.setup(fx);
    const r = c.asNobody ? await runCliAsNobody(ARGV[c.run](fx), fx.root) : await runCli(ARGV[c.run](fx), fx.root);
    expect(r.stderr).not.toContain('internal error');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`${c.file(fx)}: `);
    expect(r.stderr).toContain(typeof c.problem === 'string' ? c.problem : c.problem(fx));
    expect(await outputEntries(fx)).toEqual([]);
  });
});

describe('links that stay inside the input', () => {
  it('are followed by eval and convert', async () => {
    const fx = await copyFixture(template, path.join(base, 'inner-links'));
    // The predictions are the GT through a folder link, and one GT mask is a link to a file kept elsewhere in the input.
    await linkAt(fx, `in/${fx.osc}/pred/masks/${VIDEO}`, `../../gt/masks/${VIDEO}`);
    await rename(fx.abs(fx.gtMask(2)), fx.abs(`in/${fx.osc}/gt/kept-elsewhere.png`));
    await linkAt(fx, fx.gtMask(2), '../../kept-elsewhere.png');
    const scored = await runCli(ARGV.eval(fx), fx.root);
    expect(scored.code, scored.stderr).toBe(0);
    expect(scored.stdout).toContain('Mean (clips)      1  1.000');
    await rm(fx.abs('out'), { recursive: true });
    const converted = await runCli(ARGV.convert(fx), fx.root);
    expect(converted.code, converted.stderr).toBe(0);
    expect(await outputEntries(fx)).toContain(path.join('Annotations', VIDEO, 'frame0002.png'));
  });
});

describe('convert on a write that fails midway', () => {
  it('removes the files it wrote before the failure and says so', async () => {
    const fx = await copyFixture(template, path.join(base, 'partial'));
    // A file where the DAVIS Annotations folder must go: frame images are written first, then mkdir fails.
    await mkdir(fx.abs('out'));
    await writeFile(fx.abs('out/Annotations'), 'in the way');
    const r = await runCli(['convert', '--from', 'wtc', '--to', 'davis', '--force', 'in', 'out'], fx.root);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('out/Annotations/');
    expect(r.stderr).toContain('cannot write');
    expect(r.stderr).toMatch(/removed the \d+ files? written before/);
    expect(await outputEntries(fx)).toEqual(['Annotations']);
  });
});
