/**
 * Thin layer over Node's util.parseArgs: its errors become UsageErrors (exit code 2) that name the
 * command, and option values are checked by small typed parsers with messages that say what is
 * expected.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './io';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Strict parse: unknown options and stray positionals are usage errors. */
export function parseCommandArgs(command: string, argv: readonly string[], options: Options, positionals = false): Parsed {
  try {
    const { values, positionals: pos } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: positionals });
    return { values: values as Parsed['values'], positionals: pos };
  } catch (err) {
    const e = err as Error & { code?: string };
    if (typeof e.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS')) throw new UsageError(e.message.split('\n')[0], command);
    throw err;
  }
}

export function stringOption(parsed: Parsed, name: string): string | undefined {
  const v = parsed.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function requireString(parsed: Parsed, name: string, command: string): string {
  const v = stringOption(parsed, name);
  if (v === undefined || v === '') throw new UsageError(`--${name} is required`, command);
  return v;
}

export function flag(parsed: Parsed, name: string): boolean {
  return parsed.values[name] === true;
}

export function parseChoice<T extends string>(value: string, name: string, choices: readonly T[], command: string): T {
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${name} must be one of ${choices.join(', ')}; got "${value}"`, command);
}

/** A decimal integer in [min, max]. */
export function parseInteger(value: string, name: string, command: string, min: number, max: number): number {
  if (!/^[-+]?\d+$/.test(value.trim())) throw new UsageError(`--${name} must be an integer; got "${value}"`, command);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be between ${min} and ${max}; got ${value}`, command);
  }
  return n;
}

/** A decimal number in [min, max]. */
export function parseNumber(value: string, name: string, command: string, min: number, max: number): number {
  const n = value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a number between ${min} and ${max}; got "${value}"`, command);
  }
  return n;
}

/** "640x360" -> [640, 360] (also accepts "640X360" and "640*360"). */
export function parseSize(value: string, name: string, command: string, maxSide: number): [number, number] {
  const m = /^\s*(\d+)\s*[xX*]\s*(\d+)\s*$/.exec(value);
  if (!m) throw new UsageError(`--${name} must look like WIDTHxHEIGHT (e.g. 640x360); got "${value}"`, command);
  const w = Number(m[1]);
  const h = Number(m[2]);
  if (w < 1 || h < 1 || w > maxSide || h > maxSide) {
    throw new UsageError(`--${name} sides must be between 1 and ${maxSide} px; got ${w}x${h}`, command);
  }
  return [w, h];
}
