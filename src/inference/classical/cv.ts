/**
 * The OpenCV.js module as the classical algorithms see it, and the one safe way to wait for it.
 *
 * The package is an Emscripten module whose object has its own `then`: awaiting it (or resolving a
 * promise with it) adopts that thenable, which hands back the module and never settles cleanly.
 * So readiness is awaited through `Mat`/`onRuntimeInitialized` and the module is handed over
 * wrapped in a plain object.
 */
export type Cv = typeof import('@techstark/opencv-js');

/** The few members the package's typings omit (present in the 4.12 build we pin). */
export interface CvExtras {
  segmentation_IntelligentScissorsMB: new () => IntelligentScissors;
}

export interface IntelligentScissors {
  setEdgeFeatureCannyParameters(threshold1: number, threshold2: number, apertureSize?: number, l2gradient?: boolean): void;
  setGradientMagnitudeMaxLimit(limit: number): void;
  applyImage(image: unknown): void;
  buildMap(source: unknown): void;
  getContour(target: unknown, contour: unknown, backward?: boolean): void;
  delete(): void;
}

interface Pending {
  Mat?: unknown;
  onRuntimeInitialized?: () => void;
}

/** Resolves once the runtime is initialised; `mod` is the package's default export. */
export function whenCvReady(mod: unknown): Promise<{ cv: Cv }> {
  const m = mod as Pending;
  return new Promise((resolve) => {
    if (typeof m.Mat === 'function') {
      resolve({ cv: mod as Cv });
      return;
    }
    const done = () => {
      clearInterval(timer);
      resolve({ cv: mod as Cv });
    };
    const previous = m.onRuntimeInitialized;
    m.onRuntimeInitialized = () => {
      previous?.();
      done();
    };
    // The hook can be missed when the runtime finishes between the import and this line, so
    // readiness is also polled (cheaply) until the first of the two.
    const timer = setInterval(() => typeof m.Mat === 'function' && done(), 50);
  });
}
