import { beforeAll, describe, expect, it } from 'vitest';
import type { Cv } from './cv';
import { grabCut, regionFromClick, scissorsPath, scissorsRegion } from './segment';
import { iou, paintDisc, texture } from './synthetic';
import { nodeCv } from '../../testing/opencv';

let cv: Cv;
beforeAll(async () => {
  cv = (await nodeCv()).cv;
});

describe('grabCut', () => {
  it('recovers a bright disc on a textured background from a loose box (IoU > 0.9)', () => {
    const image = texture(320, 240, 1);
    const disc = paintDisc(image, 160, 120, 50, [250, 235, 90]);
    const mask = grabCut(cv, image, { x: 95, y: 55, w: 130, h: 130 });
    expect(iou(mask, disc)).toBeGreaterThan(0.9);
  });

  it('works the same when the crop is scaled down first', () => {
    const image = texture(640, 480, 2);
    const disc = paintDisc(image, 300, 240, 120, [240, 60, 200]);
    const mask = grabCut(cv, image, { x: 160, y: 100, w: 280, h: 280 }, { maxSide: 200 });
    expect(iou(mask, disc)).toBeGreaterThan(0.9);
  });

  it('never marks pixels outside the box and returns nothing for a degenerate box', () => {
    const image = texture(200, 150, 3);
    paintDisc(image, 100, 75, 26, [250, 250, 250]);
    const mask = grabCut(cv, image, { x: 70, y: 45, w: 60, h: 60 });
    let outside = 0;
    for (let i = 0; i < mask.length; i++) {
      const x = i % 200;
      const y = Math.floor(i / 200);
      if (mask[i] && (x < 70 || x >= 130 || y < 45 || y >= 105)) outside++;
    }
    expect(outside).toBe(0);
    expect(mask.some((v) => v === 1)).toBe(true);
    expect(grabCut(cv, image, { x: 500, y: 500, w: 10, h: 10 }).some((v) => v === 1)).toBe(false);
  });
});

describe('regionFromClick', () => {
  it('fills the clicked uniform region and stops at its colour edge', () => {
    const image = texture(240, 180, 4, 24, 6);
    const disc = paintDisc(image, 120, 90, 45, [30, 200, 220], 5, 12);
    const mask = regionFromClick(cv, image, { x: 130, y: 95 });
    expect(iou(mask, disc)).toBeGreaterThan(0.95);
  });

  it('is empty outside the image and grows with the tolerance when not adaptive', () => {
    const image = texture(160, 120, 5);
    expect(regionFromClick(cv, image, { x: -3, y: 10 }).some((v) => v === 1)).toBe(false);
    const tight = regionFromClick(cv, image, { x: 80, y: 60 }, { tolerance: 4, adaptive: false }).reduce((s, v) => s + v, 0);
    const loose = regionFromClick(cv, image, { x: 80, y: 60 }, { tolerance: 30, adaptive: false }).reduce((s, v) => s + v, 0);
    expect(tight).toBeGreaterThan(0);
    expect(loose).toBeGreaterThan(tight);
  });

  it('stops growing before it leaks into a background of nearby colour', () => {
    // A 60x40 block of grey 120 in a frame of grey 150: a fixed tolerance of 30+ takes the whole
    // frame, the adaptive ladder keeps the block.
    const width = 200;
    const height = 150;
    const data = new Uint8ClampedArray(width * height * 4);
    const block = new Uint8Array(width * height);
    for (let i = 0; i < width * height; i++) {
      const x = i % width;
      const y = Math.floor(i / width);
      const inside = x >= 70 && x < 130 && y >= 50 && y < 90;
      block[i] = inside ? 1 : 0;
      data.fill(inside ? 120 : 150, i * 4, i * 4 + 3);
      data[i * 4 + 3] = 255;
    }
    const image = { width, height, data };
    expect(regionFromClick(cv, image, { x: 100, y: 70 }, { tolerance: 40, adaptive: false }).reduce((s, v) => s + v, 0)).toBe(width * height);
    expect(iou(regionFromClick(cv, image, { x: 100, y: 70 }, { tolerance: 40 }), block)).toBeGreaterThan(0.97);
  });
});

describe('scissorsPath', () => {
  it('follows the edge of a dark square between clicks near its corners', () => {
    const width = 160;
    const height = 120;
    const data = new Uint8ClampedArray(width * height * 4).fill(230);
    for (let y = 30; y < 90; y++) for (let x = 40; x < 120; x++) data.fill(30, (y * width + x) * 4, (y * width + x) * 4 + 3);
    const image = { width, height, data };
    const path = scissorsPath(cv, image, [
      { x: 41, y: 31 },
      { x: 118, y: 32 },
      { x: 118, y: 88 },
      { x: 42, y: 88 },
    ]);
    expect(path.length).toBeGreaterThan(200);
    // Every point lies on (within 2 px of) the square's outline.
    const off = path.filter((p) => Math.min(Math.abs(p.x - 40), Math.abs(p.x - 119), Math.abs(p.y - 30), Math.abs(p.y - 89)) > 2 || p.x < 37 || p.x > 122 || p.y < 27 || p.y > 92);
    expect(off).toEqual([]);
    // One connected walk in click order: every step moves to a neighbouring pixel.
    const jumps = path.filter((p, i) => i > 0 && Math.max(Math.abs(p.x - path[i - 1].x), Math.abs(p.y - path[i - 1].y)) > 1);
    expect(jumps).toEqual([]);
    expect(path[0]).toEqual({ x: 41, y: 31 });
    // Filled, the path encloses the square.
    const { mask } = scissorsRegion(cv, image, [
      { x: 41, y: 31 },
      { x: 118, y: 32 },
      { x: 118, y: 88 },
      { x: 42, y: 88 },
    ]);
    const square = new Uint8Array(width * height);
    for (let y = 30; y < 90; y++) square.fill(1, y * width + 40, y * width + 120);
    expect(iou(mask, square)).toBeGreaterThan(0.93);
    expect(scissorsRegion(cv, image, [{ x: 1, y: 1 }, { x: 5, y: 5 }]).mask.some((v) => v === 1)).toBe(false);
  });
});
