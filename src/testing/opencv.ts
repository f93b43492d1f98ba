/**
 * The real OpenCV.js build for Node tests and benches (the same package the worker loads), loaded
 * with require: a static ESM import makes the test runner await the module, which adopts its
 * `then` and hangs. Always handed over wrapped for the same reason.
 */
import { createRequire } from 'node:module';
import { whenCvReady, type Cv } from '../inference/classical/cv';

let ready: Promise<{ cv: Cv }> | null = null;

export function nodeCv(): Promise<{ cv: Cv }> {
  ready ??= whenCvReady(createRequire(import.meta.url)('@techstark/opencv-js'));
  return ready;
}
