/** The pure parts of server/sync: row checks, JSON comparison, image types, live messages, the hub. */
import { describe, expect, it } from 'vitest';
import type { LiveServerMessage } from '../../src/sync/protocol';
import { parseLiveClientMessage } from '../http/routes/liveRoutes';
import { clipRow, frameRow } from '../testing/syncFixtures';
import { RowRefused, checkRow, sameJson } from './checkRow';
import { imageMime } from './imageMime';
import { LiveHub } from './liveHub';
import { presenceOf } from './presence';
import { changedPayload, parseChangedPayload } from './push';

const PROJECT = '00000000-0000-4000-8000-000000000001';

describe('checkRow', () => {
  const clip = clipRow(PROJECT);
  const shape = { id: String(clip.id), width: 8, height: 6, frameCount: 3 };
  const code = (run: () => unknown) => {
    try {
      run();
      return 'accepted';
    } catch (err) {
      return err instanceof RowRefused ? err.code : String(err);
    }
  };

  it("keeps a frame's image reference and checks the rest with the store's validator", () => {
    const frame = frameRow(shape.id, 1);
    expect(checkRow('frame', `${shape.id}/1`, frame, PROJECT, shape)).toEqual(frame);
    expect(code(() => checkRow('frame', `${shape.id}/1`, { ...frame, image: { ...(frame.image as object), sha256: 'A'.repeat(64) } }, PROJECT, shape))).toBe(400);
    expect(code(() => checkRow('frame', `${shape.id}/1`, { ...frame, phase: 'middle' }, PROJECT, shape))).toBe(400);
    expect(code(() => checkRow('frame', `${shape.id}/2`, frame, PROJECT, shape))).toBe(400);
    expect(code(() => checkRow('frame', `${shape.id}/3`, frameRow(shape.id, 3), PROJECT, shape))).toBe(400);
  });

  it('refuses what jsonb cannot hold and rows nested without end', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 40; i++) deep = { settings: deep };
    expect(code(() => checkRow('clip', String(clip.id), { ...clip, name: 'a\u0000b' }, PROJECT, null))).toBe(400);
    expect(code(() => checkRow('clip', String(clip.id), { ...clip, osc: deep }, PROJECT, null))).toBe(400);
    expect(code(() => checkRow('clip', String(clip.id), { ...clip, name: 'emoji 🍌 is fine' }, PROJECT, null))).toBe('accepted');
  });
});

it('compares JSON whatever the key order, and nothing else', () => {
  expect(sameJson({ a: 1, b: [1, { c: 2, d: null }] }, { b: [1, { d: null, c: 2 }], a: 1 })).toBe(true);
  expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
  expect(sameJson([1, 2], { 0: 1, 1: 2 })).toBe(false);
  expect(sameJson({ a: '1' }, { a: 1 })).toBe(false);
});

it('names image types by their first bytes, never a type a browser would run', () => {
  expect(imageMime(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
  expect(imageMime(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
  expect(imageMime(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp');
  expect(imageMime(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBe('application/octet-stream');
  expect(imageMime(Buffer.alloc(0))).toBe('application/octet-stream');
});

it('reads only the live messages the protocol knows', () => {
  expect(parseLiveClientMessage('{"type":"open","clipId":"c-1"}')).toEqual({ type: 'open', clipId: 'c-1' });
  expect(parseLiveClientMessage('{"type":"open","clipId":null}')).toEqual({ type: 'open', clipId: null });
  for (const bad of ['', 'null', '[]', '{"type":"open"}', '{"type":"close","clipId":null}', '{"type":"open","clipId":"a b"}', '{"type":"open","clipId":null,"x":1}']) {
    expect(parseLiveClientMessage(bad), bad).toBeNull();
  }
  expect(parseChangedPayload(changedPayload(PROJECT, '40', '42'))).toEqual({ projectId: PROJECT, after: '40', cursor: '42' });
  // The older form (a server process of the version before, during an upgrade) still reads.
  expect(parseChangedPayload(`${PROJECT} 42`)).toEqual({ projectId: PROJECT, cursor: '42' });
  for (const bad of [`${PROJECT} 042`, `${PROJECT} 1 042`, `${PROJECT} 1 2 3`, `${PROJECT}  2`, `x ${PROJECT} 2`]) expect(parseChangedPayload(bad), bad).toBeNull();
});

describe('the live hub', () => {
  const peer = (username: string) => {
    const got: LiveServerMessage[] = [];
    return { username, got, send: (text: string) => void got.push(JSON.parse(text) as LiveServerMessage) };
  };

  it("tells only the project's peers of changes, and knows which clip each has open", () => {
    const hub = new LiveHub();
    const [ana, bo, cy] = [peer('ana'), peer('bo'), peer('cy')];
    hub.join('p1', ana);
    hub.join('p1', bo);
    hub.join('p2', cy);
    hub.broadcast('p1', { type: 'changed', cursor: '7' });
    expect([ana.got, cy.got]).toEqual([[{ type: 'changed', cursor: '7' }], []]);
    expect(hub.open('p1', ana, 'c1')).toBe(true);
    expect(hub.open('p1', ana, 'c1')).toBe(false);
    expect(hub.open('p2', ana, 'c1')).toBe(false);
    expect(hub.clipOf('p1', ana)).toBe('c1');
    expect(hub.leave('p1', ana)).toBe(true);
    expect(hub.leave('p1', bo)).toBe(false);
    expect(hub.projectIds()).toEqual(['p2']);
  });

  it('lists presence per clip, a clip named "__proto__" as a plain key', () => {
    const clips = presenceOf([
      { clip_id: '__proto__', username: 'bo' },
      { clip_id: '__proto__', username: 'ana' },
      { clip_id: 'c2', username: 'ana' },
      { clip_id: 'c2', username: 'ana' },
    ]);
    expect(clips).toEqual({ ['__proto__']: ['ana', 'bo'], c2: ['ana'] });
    expect(Object.getPrototypeOf(clips)).toBe(Object.prototype);
  });
});
