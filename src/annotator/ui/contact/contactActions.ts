/**
 * The contact actions in the editor's one action table (palette, shortcut sheet, keys): start
 * setting a hand's contact, and its mode's Escape. Their runners are published by ContactPicking
 * while an objects clip is open.
 */
import type { Action } from '../../actions';
import { roomAction } from '../roomActions';

export const CONTACT_ACTION_IDS = { start: 'contact.start', cancel: 'contact.cancel' } as const;

const NOT_OBJECTS = 'contacts are set in an objects project';

export const CONTACT_ACTIONS: readonly Action[] = [
  roomAction({ id: CONTACT_ACTION_IDS.start, label: 'Set contact (click a hand, then what it touches)', group: 'edit', shortcuts: ['shift+c'], absent: NOT_OBJECTS }),
  roomAction({ id: CONTACT_ACTION_IDS.cancel, when: 'setting-contact', label: 'Stop setting a contact', group: 'edit', shortcuts: ['escape'], absent: 'no contact is being set' }),
];
