/**
 * The editor canvas's pointer input has one way in: CanvasHost hands it to the EditorSession, which
 * routes it to the paint tool or to the room tool of the mode that is on (docs/architecture.md,
 * "Room tools"). A room that reaches the canvas (CanvasHandle, canvasView()) must not listen for
 * pointer events there itself, neither on the canvas element nor on an element laid over it.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '..', '..');
const OWNER = join('annotator', 'ui', 'CanvasHost.tsx');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

const REACHES_CANVAS = /\bCanvasHandle\b|canvasView\(\)/;
const LISTENS_FOR_POINTER = /addEventListener\(\s*['"]pointer|\bonPointer(Down|Move|Up)(Capture)?=\{/;

describe('editor canvas input', () => {
  it('is listened for by CanvasHost only; rooms lend the session a room tool instead', () => {
    const offenders = sources(SRC)
      .filter((path) => relative(SRC, path) !== OWNER)
      .filter((path) => {
        const text = readFileSync(path, 'utf8');
        return REACHES_CANVAS.test(text) && LISTENS_FOR_POINTER.test(text);
      })
      .map((path) => relative(SRC, path));
    expect(offenders).toEqual([]);
  });
});
