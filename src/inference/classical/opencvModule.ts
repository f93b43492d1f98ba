/**
 * The one static import of OpenCV.js, kept in its own module so the worker can load it with a
 * dynamic import of THIS file (its chunk is then fetched only on first use). Importing the package
 * itself dynamically does not work: the bundler's CommonJS interop copies the Emscripten module's
 * own `then` onto the namespace it hands to `await`, which adopts it and never settles.
 */
import cvModule from '@techstark/opencv-js';
import { whenCvReady, type Cv } from './cv';

export function loadOpenCv(): Promise<{ cv: Cv }> {
  return whenCvReady(cvModule);
}
