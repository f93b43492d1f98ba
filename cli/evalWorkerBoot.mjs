// The evaluation worker from the TypeScript sources (a checkout without dist-cli/): registers tsx's
// loader in this thread, as cli/spoc-studio.mjs does for the main one, then loads evalWorker.ts.
import { URL, fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('./evalWorker.ts');
