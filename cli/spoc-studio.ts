/**
 * spoc-studio command-line entry: `npx spoc-studio …` (through the cli/spoc-studio.mjs shim) or
 * `npx tsx cli/spoc-studio.ts …`. The program itself is `main` in ./main.ts.
 */
import { pathToFileURL } from 'node:url';
import { runFromProcess } from './main';

export { main, runFromProcess } from './main';

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runFromProcess();
}
