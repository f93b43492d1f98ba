/**
 * "Download the journal as bundles": the journal is rebuilt into a scratch database of its own (never
 * the user's store), each project is exported as an ordinary project bundle, and the scratch
 * database is deleted. The bundles import anywhere, also into another browser or machine.
 */
import { Dexie } from 'dexie';
import { bundleFileName, exportBundle } from '../../io/bundle/exportBundle';
import { BlobSink } from '../../io/bundle/sinks';
import { openSpocDb } from '../../store/db';
import { restoreFromJournal, type Journal } from '../../store/journal';

const SCRATCH_DB = 'spoc-studio-recovery';

export interface RecoveredBundle {
  name: string;
  blob: Blob;
}

export async function journalBundles(journal: Journal, onProgress?: (text: string) => void): Promise<RecoveredBundle[]> {
  await Dexie.delete(SCRATCH_DB);
  const scratch = await openSpocDb(SCRATCH_DB);
  try {
    await restoreFromJournal(scratch, journal, {
      mode: 'scratch',
      onProgress: (p) => onProgress?.(`Reading the journal… ${p.done} of ${p.total}`),
    });
    const out: RecoveredBundle[] = [];
    for (const project of await scratch.projects.toArray()) {
      onProgress?.(`Writing the bundle of "${project.name}"…`);
      const sink = new BlobSink();
      await exportBundle(scratch, project.id, sink);
      out.push({ name: bundleFileName(project.name), blob: sink.blob() });
    }
    return out;
  } finally {
    scratch.close();
    await Dexie.delete(SCRATCH_DB);
  }
}
