import { describe, expect, it } from 'vitest';
import { decodeCp437, decodeEntryName, unsafeEntryName } from './zipNames';
import { unicodePathExtra } from '../../testing/zips';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('zip entry names', () => {
  it('decodes code page 437 as the zip spec means it (checked against Python\'s cp437 codec)', () => {
    const high = decodeCp437(Uint8Array.from({ length: 128 }, (_, i) => 0x80 + i));
    expect([...high]).toHaveLength(128);
    expect(high.slice(0, 8)).toBe('Çüéâäàåç');
    expect(high[0xe1 - 0x80]).toBe('ß');
    expect(high[0xcd - 0x80]).toBe('═');
    expect(high[0xff - 0x80]).toBe('\u00a0');
    expect(decodeCp437(bytes('plain/ascii.jpg'))).toBe('plain/ascii.jpg');
  });

  it('uses the Unicode Path field only when its CRC matches the raw name', () => {
    const raw = new Uint8Array([0x4b, 0x81, 0x63, 0x68, 0x65]); // "Küche" in code page 437
    expect(decodeEntryName(raw, 0, unicodePathExtra(raw, 'Kitchen-ü'))).toEqual({ name: 'Kitchen-ü' });
    // Written for another name (the raw name was changed after): ignored, code page 437 read instead.
    expect(decodeEntryName(raw, 0, unicodePathExtra(bytes('other'), 'Kitchen-ü'))).toEqual({ name: 'Küche' });
  });

  it('names what makes a name unsafe', () => {
    expect(unsafeEntryName('')).toBe('has an empty name');
    expect(unsafeEntryName('\\evil.jpg')).toBe('has an absolute path');
    expect(unsafeEntryName('C:x.jpg')).toBe('has an absolute path');
    expect(unsafeEntryName('/etc/passwd')).toBe('has an absolute path');
    expect(unsafeEntryName('a/../../b')).toBe('has a path that climbs out of the archive ("..")');
    expect(unsafeEntryName('a\\..\\b')).toBe('has a path that climbs out of the archive ("..")');
    expect(unsafeEntryName('tab\there')).toBe('has a control character in its name');
    expect(unsafeEntryName('clip/frame..1.jpg')).toBeNull();
  });
});
