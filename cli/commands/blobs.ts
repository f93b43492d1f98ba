/**
 * spoc-studio blobs gc [--grace-hours N] [--dry-run] [--data DIR]: deletes frame images no project
 * needs any more (server/sync/blobGc.ts; docs/server.md "Blobs"). An administrator command, run on
 * the server machine like `user`: it opens the database directly, so with the embedded database stop
 * `serve` first; with PostgreSQL it may run while the servers serve.
 */
import { collectBlobGarbage, DEFAULT_BLOB_GRACE_MS } from '../../server/sync/blobGc';
import { flag, parseCommandArgs, parseNumber, stringOption } from '../args';
import { BLOBS_HELP } from '../help';
import { EXIT, UsageError, type CliIo } from '../io';
import { dbChoice, openMigratedDb } from '../serverDb';

const options = { data: { type: 'string' }, 'grace-hours': { type: 'string' }, 'dry-run': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

export async function blobsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs('blobs', argv, options, true);
  if (flag(parsed, 'help')) {
    io.stdout.write(BLOBS_HELP);
    return EXIT.ok;
  }
  const [action, ...extra] = parsed.positionals;
  if (action !== 'gc') throw new UsageError(`expected "gc" after "blobs"${action ? `; got "${action}"` : ''}`, 'blobs');
  if (extra.length) throw new UsageError(`unexpected argument "${extra[0]}"`, 'blobs');
  const hours = stringOption(parsed, 'grace-hours');
  const graceMs = hours === undefined ? DEFAULT_BLOB_GRACE_MS : parseNumber(hours, 'grace-hours', 'blobs', 0, 24 * 365) * 3600_000;
  const dryRun = flag(parsed, 'dry-run');

  const db = await openMigratedDb(dbChoice(io, stringOption(parsed, 'data')));
  try {
    const r = await collectBlobGarbage(db, { graceMs, dryRun });
    const mib = (r.bytes / 1024 / 1024).toFixed(1);
    const verb = dryRun ? 'would drop' : 'dropped';
    io.stdout.write(
      `${verb} ${r.references} project reference${r.references === 1 ? '' : 's'} to images no frame shows, ` +
        `${dryRun ? 'would delete' : 'deleted'} ${r.blobs} image${r.blobs === 1 ? '' : 's'} no project references (${mib} MiB)` +
        ` last uploaded over ${graceMs / 3600_000} h ago${dryRun ? '; nothing was deleted (dry run)' : ''}\n`,
    );
  } finally {
    await db.close();
  }
  return EXIT.ok;
}
