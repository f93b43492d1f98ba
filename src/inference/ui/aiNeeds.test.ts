import { describe, expect, it } from 'vitest';
import { aiActionNeed } from './aiNeeds';

describe('why an AI action cannot run', () => {
  it('says which model is missing, for each action', () => {
    expect(aiActionNeed('proposals', { sam: false, clip: false })?.short).toBe('needs SAM');
    expect(aiActionNeed('proposals', { sam: true, clip: false })).toBeNull();
    expect(aiActionNeed('prelabel', { sam: false, clip: false })?.short).toBe('needs SAM + CLIP');
    expect(aiActionNeed('prelabel', { sam: false, clip: true })?.short).toBe('needs SAM');
    expect(aiActionNeed('prelabel', { sam: true, clip: false })?.reason).toMatch(/CLIP model \(with its tokenizer.json\)/);
    expect(aiActionNeed('prelabel', { sam: true, clip: true })).toBeNull();
  });

  it('points to the Models dialog', () => {
    expect(aiActionNeed('proposals', { sam: false, clip: false })?.reason).toMatch(/Open Models/);
  });
});
