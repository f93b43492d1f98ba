import { describe, expect, it } from 'vitest';
import { frameLightFilter, validLight } from './frameLight';

describe('frame brightness and contrast', () => {
  it('is no filter at the defaults and a CSS filter otherwise', () => {
    expect(frameLightFilter(1, 1)).toBe('none');
    expect(frameLightFilter(2, 1)).toBe('brightness(2)');
    expect(frameLightFilter(1.5, 0.8)).toBe('brightness(1.5) contrast(0.8)');
  });
  it('falls back to 1 for stored values that make no sense', () => {
    expect(validLight(2)).toBe(2);
    expect(validLight('2')).toBe(1);
    expect(validLight(NaN)).toBe(1);
    expect(validLight(100)).toBe(1);
    expect(validLight(undefined)).toBe(1);
  });
});
