import { afterAll, describe, expect, it } from 'vitest';
import { ClassicalClient } from './classicalClient';
import { inProcessTransport } from '../../rpc/transport';
import { createClassicalHandler } from './handler';
import { centroid, iou, paintDisc, texture, translate } from './synthetic';
import { nodeCv } from '../../testing/opencv';

let loads = 0;
const client = new ClassicalClient(
  inProcessTransport(
    createClassicalHandler(() => {
      loads++;
      return nodeCv();
    }),
  ),
);
afterAll(() => client.close());

describe('ClassicalClient over the handler (real OpenCV, messages cloned like postMessage)', () => {
  it('leaves OpenCV unloaded for the classifier and loads it once for the OpenCV methods', async () => {
    const image = texture(120, 90, 1);
    const labels = { width: 120, height: 90, data: new Uint8Array(120 * 90) };
    labels.data.fill(1, 0, 120 * 45);
    labels.data.fill(2, 120 * 45);
    const s = await client.classifyStates([{ image, labels }], image);
    expect(s.labels.length).toBe(120 * 90);
    expect(loads).toBe(0);
    await client.warmUp();
    await client.regionFromClick(image, { x: 10, y: 10 });
    expect(loads).toBe(1);
  });

  it('runs grabCut and propagateByFlow without taking the caller\'s buffers', async () => {
    const image = texture(200, 160, 2);
    const disc = paintDisc(image, 100, 80, 35, [250, 240, 80]);
    const mask = await client.grabCut(image, { x: 55, y: 35, w: 90, h: 90 });
    expect(image.data.byteLength).toBe(200 * 160 * 4);
    expect(iou(mask, disc)).toBeGreaterThan(0.9);
    const labels = { width: 200, height: 160, data: disc };
    const { map, confidence } = await client.propagateByFlow(image, translate(image, 4, 3), labels);
    expect(labels.data.byteLength).toBe(200 * 160);
    const a = centroid(disc, 200);
    const b = centroid(map.data, 200);
    expect(b.x - a.x).toBeCloseTo(4, 0);
    expect(b.y - a.y).toBeCloseTo(3, 0);
    expect(confidence).toBeGreaterThan(0.8);
    expect(client.lastMs.grabCut).toBeGreaterThan(0);
  });

  it('reports a failing call as a rejected promise with the reason', async () => {
    const image = texture(50, 40, 3);
    const labels = { width: 10, height: 10, data: new Uint8Array(100) };
    await expect(client.propagateByFlow(image, image, labels)).rejects.toThrow(/differ in size/);
    await expect(client.classifyStates([{ image, labels: { width: 50, height: 40, data: new Uint8Array(2000) } }], image)).rejects.toThrow(/nothing|no labelled/);
  });
});
