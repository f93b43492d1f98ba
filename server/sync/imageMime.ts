/**
 * The type a frame image is served with, from its first bytes: only image types the app decodes,
 * never one a browser would run (HTML, SVG); anything else is application/octet-stream. Pure.
 */
const SIGNATURES: [string, number[], number][] = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 0],
  ['image/jpeg', [0xff, 0xd8, 0xff], 0],
  ['image/gif', [0x47, 0x49, 0x46, 0x38], 0],
  ['image/webp', [0x57, 0x45, 0x42, 0x50], 8],
];

export function imageMime(bytes: Uint8Array): string {
  for (const [mime, sig, at] of SIGNATURES) {
    if (bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b)) {
      if (mime !== 'image/webp' || (bytes[0] === 0x52 && bytes[1] === 0x49 && bytes[2] === 0x46 && bytes[3] === 0x46)) return mime;
    }
  }
  return 'application/octet-stream';
}
