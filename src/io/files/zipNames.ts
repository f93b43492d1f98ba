/**
 * Zip entry names: decoding and safety.
 *
 * The zip spec (APPNOTE 6.3, 4.4.4 and appendix D) says a name is UTF-8 when general-purpose flag
 * bit 11 is set and IBM code page 437 otherwise. Tools differ in practice, so an unflagged name is
 * read, in this order, as: the Info-ZIP Unicode Path extra field (0x7075) when its CRC-32 matches
 * the raw name (the writer's own UTF-8 copy); plain ASCII; UTF-8 when the bytes are valid UTF-8
 * (Linux and macOS tools write UTF-8 without setting the bit, and code page 437 text almost never
 * forms valid multi-byte UTF-8); else code page 437, which decodes every byte. So only a flagged
 * name that is not UTF-8, or a name that decodes to something unusable as a path, is refused.
 */
import { crc32 } from './zipCrc';

/** Code page 437, bytes 0x80 to 0xFF (0x00 to 0x7F read as ASCII, as Python's cp437 codec does). */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

export const UTF8_NAME_FLAG = 1 << 11;
const UNICODE_PATH_EXTRA = 0x7075;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function decodeCp437(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80];
  return s;
}

function utf8OrNull(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}

/** The UTF-8 name of an Info-ZIP Unicode Path extra field (version 1) written for exactly `raw`, or null. */
function unicodePathExtra(extra: Uint8Array, raw: Uint8Array): string | null {
  const dv = new DataView(extra.buffer, extra.byteOffset, extra.byteLength);
  for (let p = 0; p + 4 <= extra.length; ) {
    const id = dv.getUint16(p, true);
    const len = dv.getUint16(p + 2, true);
    if (p + 4 + len > extra.length) return null;
    if (id === UNICODE_PATH_EXTRA && len >= 5 && extra[p + 4] === 1 && dv.getUint32(p + 5, true) === crc32(raw)) {
      return utf8OrNull(extra.subarray(p + 9, p + 4 + len));
    }
    p += 4 + len;
  }
  return null;
}

/** The entry's name, or why it cannot be read (see the file comment for the order of encodings). */
export function decodeEntryName(raw: Uint8Array, flags: number, extra: Uint8Array): { name: string } | { problem: string } {
  if (flags & UTF8_NAME_FLAG) {
    const name = utf8OrNull(raw);
    return name === null ? { problem: 'is not valid UTF-8 although the archive marks it as UTF-8 (flag bit 11)' } : { name };
  }
  const name = unicodePathExtra(extra, raw) ?? utf8OrNull(raw) ?? decodeCp437(raw);
  return { name };
}

/** Why a decoded entry name is unsafe to use as a path anywhere, or null. */
export function unsafeEntryName(name: string): string | null {
  if (name.length === 0) return 'has an empty name';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'has a control character in its name';
  if (name.startsWith('/') || name.startsWith('\\') || /^[a-zA-Z]:/.test(name)) return 'has an absolute path';
  if (name.split(/[\\/]/).includes('..')) return 'has a path that climbs out of the archive ("..")';
  return null;
}

/** A name as messages show it: quoted, and cut when absurdly long. */
export function shownName(name: string): string {
  return JSON.stringify(name.length > 120 ? `${name.slice(0, 120)}…` : name);
}
