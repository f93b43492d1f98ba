import { describe, expect, it } from 'vitest';
import type { LayerRelation } from '../store/types';
import { defaultLabelSchema } from './labelSchema';
import { contactOf, handName, handOf, relationsOnFrame, sameRelations, withContact } from './relations';

const objects = [{ id: 'hand' }, { id: 'pan' }, { id: 'glove' }];
const touch: LayerRelation = { type: 'contact', subjectId: 'hand', answer: 'contact', objectId: 'pan' };

describe('contact relations', () => {
  it('sets one answer per hand, replacing the earlier one, and clears it', () => {
    const first = withContact([], objects, 'hand', 'contact', 'pan');
    expect(first).toEqual({ relations: [touch] });
    const glove = withContact([touch], objects, 'glove', 'no_contact');
    expect(glove).toEqual({ relations: [{ type: 'contact', subjectId: 'glove', answer: 'no_contact' }, touch] });
    expect(withContact([touch], objects, 'hand', 'inconclusive')).toEqual({ relations: [{ type: 'contact', subjectId: 'hand', answer: 'inconclusive' }] });
    expect(withContact([touch], objects, 'hand', null)).toEqual({ relations: [] });
    expect(contactOf([touch], 'hand')).toBe(touch);
    expect(contactOf([touch], 'pan')).toBeUndefined();
  });

  it('refuses ends that are not on the frame, a contact without its object and a hand touching itself', () => {
    expect(withContact([], objects, 'spoon', 'no_contact')).toEqual({ refused: expect.stringMatching(/hand is not on this frame/) });
    expect(withContact([], objects, 'hand', 'contact', 'spoon')).toEqual({ refused: expect.stringMatching(/object touched is not on this frame/) });
    expect(withContact([], objects, 'hand', 'contact')).toEqual({ refused: expect.stringMatching(/names the object/) });
    expect(withContact([], objects, 'hand', 'contact', 'hand')).toEqual({ refused: expect.stringMatching(/itself/) });
  });

  it('keeps the relations whose both ends are still on the frame', () => {
    const inconclusive: LayerRelation = { type: 'contact', subjectId: 'glove', answer: 'inconclusive' };
    expect(relationsOnFrame([touch, inconclusive], [{ id: 'hand' }, { id: 'glove' }])).toEqual([inconclusive]);
    expect(relationsOnFrame([touch, inconclusive], [{ id: 'pan' }, { id: 'hand' }])).toEqual([touch]);
  });

  it('compares relation lists in any order', () => {
    const other: LayerRelation = { type: 'contact', subjectId: 'glove', answer: 'no_contact' };
    expect(sameRelations([touch, other], [other, touch])).toBe(true);
    expect(sameRelations([touch], [{ ...touch, objectId: 'glove' }])).toBe(false);
    expect(sameRelations([touch], [])).toBe(false);
  });

  it("reads which hand a glove counts as through its class's side", () => {
    const schema = defaultLabelSchema('objects');
    expect(handOf(schema, 'glove:left')).toEqual({ side: 'left', glove: true });
    expect(handName(handOf(schema, 'glove:left')!)).toBe('left hand (glove)');
    expect(handName(handOf(schema, 'hand:right')!)).toBe('right hand');
    expect(handOf(schema, undefined)).toBeNull();
    expect(handOf(schema, 'c:pan')).toBeNull();
  });
});
