#!/usr/bin/env node
// Shim for the "spoc-studio" bin: registers tsx's ESM loader so the TypeScript sources (the same
// code the app runs) load without a build step, then runs the CLI. Needs the devDependencies
// (npm install in a checkout).
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

let register;
try {
  ({ register } = await import('tsx/esm/api'));
} catch {
  process.stderr.write('spoc-studio: error: tsx is not installed; run "npm install" in the SPOC Studio checkout first\n');
  process.exit(1);
}
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { runFromProcess } = await import('./spoc-studio.ts');
await runFromProcess();
