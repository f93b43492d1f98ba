/**
 * The spoc-studio program. `main(argv, io)` is all of it: it returns the exit code and writes only
 * to the injected sinks, so tests run the real commands in-process. Entry points: cli/spoc-studio.ts
 * (and the cli/spoc-studio.mjs shim behind the "spoc-studio" bin).
 */
import { blobsCommand } from './commands/blobs';
import { convertCommand } from './commands/convert';
import { demoCommand } from './commands/demo';
import { evalCommand } from './commands/eval';
import { pullCommand } from './commands/pull';
import { pushCommand } from './commands/push';
import { serveCommand } from './commands/serve';
import { tokenCommand, userCommand } from './commands/user';
import { HELP, MAIN_HELP } from './help';
import { EXIT, UsageError, asDataError, type CliIo } from './io';
import { packageVersion } from './version';

const COMMANDS: Record<string, (argv: readonly string[], io: CliIo) => Promise<number>> = {
  eval: evalCommand,
  demo: demoCommand,
  convert: convertCommand,
  serve: serveCommand,
  user: userCommand,
  token: tokenCommand,
  blobs: blobsCommand,
  pull: pullCommand,
  push: pushCommand,
};

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined) {
      io.stderr.write(MAIN_HELP);
      return EXIT.usage;
    }
    if (command === '--help' || command === '-h') {
      io.stdout.write(MAIN_HELP);
      return EXIT.ok;
    }
    if (command === '--version' || command === '-v') {
      io.stdout.write(`spoc-studio ${packageVersion()}\n`);
      return EXIT.ok;
    }
    if (command === 'help') {
      const topic = rest[0];
      if (topic === undefined) io.stdout.write(MAIN_HELP);
      else if (HELP[topic]) io.stdout.write(HELP[topic]);
      else throw new UsageError(`no help for "${topic}"; commands are ${Object.keys(COMMANDS).join(', ')}`);
      return EXIT.ok;
    }
    const run = COMMANDS[command];
    if (!run) {
      throw new UsageError(
        command.startsWith('-') ? `expected a command before ${command}` : `unknown command "${command}"; commands are ${Object.keys(COMMANDS).join(', ')}`,
      );
    }
    return await run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      const helpCmd = err.command ? `spoc-studio ${err.command} --help` : 'spoc-studio --help';
      io.stderr.write(`spoc-studio${err.command ? ` ${err.command}` : ''}: ${err.message}\nRun "${helpCmd}" for usage.\n`);
      return EXIT.usage;
    }
    const dataError = asDataError(err);
    if (dataError) {
      io.stderr.write(`spoc-studio${command && COMMANDS[command] ? ` ${command}` : ''}: error: ${dataError.message}\n`);
      return EXIT.data;
    }
    const e = err as Error;
    io.stderr.write(`spoc-studio: internal error: ${e?.stack ?? String(err)}\n`);
    return EXIT.data;
  }
}

/** Runs main on the real process (used by the shim and when this file is executed directly). */
export async function runFromProcess(): Promise<void> {
  // A closed pipe (e.g. `| head`) is not an error worth a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
  process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
}
