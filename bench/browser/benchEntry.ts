/** Exposes the in-page benchmarks to bench/run.ts from a production build (see bench.html). */
import { runImportBench } from './importBench';
import { seedEditorBench, seedObjectsBench } from './editorBench';
import { seedPanelBench } from './panelBench';
import { runInferenceBench } from './inferenceBench';

(window as unknown as { spocBench: unknown }).spocBench = { runImportBench, seedEditorBench, seedObjectsBench, seedPanelBench, runInferenceBench };
