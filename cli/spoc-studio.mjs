#!/usr/bin/env node
// The "spoc-studio" bin. Runs the built CLI (dist-cli/spoc-studio.mjs: plain JavaScript bundled by
// `npm run build` / `npm pack`, needing only the package's "dependencies"); in a checkout without
// that build, registers tsx's loader to run the TypeScript sources (needs the devDependencies).
// SPOC_CLI_SOURCES=1 forces the sources (a checkout whose build is older than its edits).
// See docs/cli.md "Installing".
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL, fileURLToPath, pathToFileURL } from 'node:url';

const built = fileURLToPath(new URL('../dist-cli/spoc-studio.mjs', import.meta.url));
if (existsSync(built) && process.env.SPOC_CLI_SOURCES !== '1') {
  const { runFromProcess } = await import(pathToFileURL(built).href);
  await runFromProcess();
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write('spoc-studio: error: no built CLI (dist-cli/) and tsx is not installed; run "npm install" and "npm run build:cli" in the SPOC Studio checkout first\n');
    process.exit(1);
  }
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
  const { runFromProcess } = await import('./spoc-studio.ts');
  await runFromProcess();
}
