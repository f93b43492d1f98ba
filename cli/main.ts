/**
 * The spoc-studio program. `main(argv, io)` is all of it: it returns the exit code and writes only
 * to the injected sinks, so tests run the real commands in-process. Entry points: cli/spoc-studio.ts
 * (and the cli/spoc-studio.mjs shim behind the "spoc-studio" bin).
 */
import { HELP, MAIN_HELP } from './help';
import { EXIT, UsageError, asDataError, type CliIo } from './io';
import { packageVersion } from './version';

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

/**
 * Each command's module is loaded on first use, so `eval` never loads the server's (fastify, the
 * database drivers): the built CLI starts in a fraction of the time (docs/cli.md "Installing").
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  eval: async () => (await import('./commands/eval')).evalCommand,
  demo: async () => (await import('./commands/demo')).demoCommand,
  convert: async () => (await import('./commands/convert')).convertCommand,
  serve: async () => (await import('./commands/serve')).serveCommand,
  user: async () => (await import('./commands/user')).userCommand,
  token: async () => (await import('./commands/user')).tokenCommand,
  blobs: async () => (await import('./commands/blobs')).blobsCommand,
  pull: async () => (await import('./commands/pull')).pullCommand,
  push: async () => (await import('./commands/push')).pushCommand,
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
    const load = COMMANDS[command];
    if (!load) {
      throw new UsageError(
        command.startsWith('-') ? `expected a command before ${command}` : `unknown command "${command}"; commands are ${Object.keys(COMMANDS).join(', ')}`,
      );
    }
    return await (await load())(rest, io);
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
