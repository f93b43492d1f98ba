/** Exposes the in-page benchmarks to bench/run.ts from a production build (see bench.html). */
import { runImportBench } from './importBench';
import { seedEditorBench } from './editorBench';

(window as unknown as { spocBench: unknown }).spocBench = { runImportBench, seedEditorBench };
