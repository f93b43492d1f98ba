import { describe, expect, it } from 'vitest';
import { describeOsc, parseOscName, subsetOf } from './osc';
import { VERBS, VERB_SPECS } from './verbs';

describe('taxonomy', () => {
  it('has the 10 WhereToChange verbs, each with objects and prompt templates', () => {
    expect(VERBS).toHaveLength(10);
    for (const v of VERBS) {
      expect(VERB_SPECS[v].seen.length).toBeGreaterThan(0);
      expect(VERB_SPECS[v].actionableTemplate).toContain('{noun}');
      expect(VERB_SPECS[v].transformedTemplate).toContain('{noun}');
    }
  });

  it('pre-fills CLIP descriptions from verb and noun', () => {
    expect(describeOsc('grating', 'carrot')).toEqual({
      verb: 'grating',
      noun: 'carrot',
      actionable: 'whole carrot',
      transformed: 'grated carrot',
    });
    expect(describeOsc('chopping', 'avocado').transformed).toBe('chopped avocado pieces');
    expect(describeOsc('Peeling', 'Banana').actionable).toBe('unpeeled banana');
    expect(describeOsc('whisking', 'egg')).toMatchObject({ actionable: 'egg before whisking', transformed: 'egg after whisking' });
  });

  it('knows the novel objects per verb', () => {
    expect(subsetOf('grating', 'coconut')).toBe('novel');
    expect(subsetOf('grating', 'carrot')).toBe('seen');
    expect(subsetOf('chopping', 'coconut')).toBe('seen');
  });

  it('parses WhereToChange OSC folder names', () => {
    expect(parseOscName('chopping_avocado')).toEqual({ verb: 'chopping', noun: 'avocado' });
    expect(parseOscName('peeling_sweet_potato')).toEqual({ verb: 'peeling', noun: 'sweet potato' });
    expect(parseOscName('avocado')).toBeNull();
  });
});
