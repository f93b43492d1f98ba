/**
 * `spoc-studio serve`: the team server (server/) on a port, until SIGTERM or SIGINT, when it stops
 * taking connections, lets running requests finish, closes the database and exits 0.
 */
import { createServer, DEFAULT_DIST_DIR } from '../../server/http/createServer';
import { describeDb } from '../../server/db/openDb';
import { flag, parseCommandArgs, parseInteger, stringOption } from '../args';
import { SERVE_HELP } from '../help';
import { EXIT, UsageError, resolvePath, type CliIo } from '../io';
import { dbChoice, openMigratedDb } from '../serverDb';

export const DEFAULT_PORT = 8080;

function untilStopSignal(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve(signal);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

export async function serveCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseCommandArgs('serve', argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    data: { type: 'string' },
    dist: { type: 'string' },
    'public-origin': { type: 'string' },
    'trust-proxy': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flag(parsed, 'help')) {
    io.stdout.write(SERVE_HELP);
    return EXIT.ok;
  }
  const portText = stringOption(parsed, 'port');
  const port = portText === undefined ? DEFAULT_PORT : parseInteger(portText, 'port', 'serve', 0, 65535);
  const host = stringOption(parsed, 'host') ?? '127.0.0.1';
  const publicOrigin = stringOption(parsed, 'public-origin');
  if (publicOrigin !== undefined && !/^https?:\/\/[^/]+$/.test(publicOrigin)) {
    throw new UsageError(`--public-origin must look like https://host[:port] with no path; got "${publicOrigin}"`, 'serve');
  }
  const distText = stringOption(parsed, 'dist');
  const choice = dbChoice(io, stringOption(parsed, 'data'));

  const db = await openMigratedDb(choice);
  const app = await createServer({
    db,
    distDir: distText === undefined ? DEFAULT_DIST_DIR : resolvePath(io, distText),
    publicOrigin,
    trustProxy: flag(parsed, 'trust-proxy'),
    logger: { level: 'warn' },
  });
  const stopped = untilStopSignal();
  const address = await app.listen({ port, host });
  io.stdout.write(`SPOC Studio server listening on ${address}\n  database: ${describeDb(choice)}\n`);
  const signal = await stopped;
  io.stdout.write(`${signal}: stopping\n`);
  await app.close();
  await db.close();
  io.stdout.write('stopped\n');
  return EXIT.ok;
}
