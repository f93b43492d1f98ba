export {
  createDemoClip,
  sampleTimes,
  DEMO_KINDS,
  DEMO_NOUNS,
  type DemoClip,
  type DemoClipOptions,
  type DemoInstance,
  type DemoKind,
  type DemoMeta,
  type DemoPhase,
  type RenderOptions,
} from './generator';
export { readBarcode, drawBarcode, barcodeRect, barcodeCellSize, BARCODE_BITS, BARCODE_MAX } from './barcode';
export { createRng, type Rng } from './random';
export type { Layer, InstanceRole } from './scene';
