/**
 * The brush size survives a reload: the session starts every clip at its default, so the size last
 * chosen (kept with the editor's view settings) is handed to it when the clip opens, and every
 * change the session reports is written back.
 */
import { useEffect } from 'react';
import type { EditorSession } from '../session/editorSession';
import { useEditorView } from './editorViewState';

export function usePersistedBrushSize(session: EditorSession): void {
  useEffect(() => {
    const saved = useEditorView.getState().brushSize;
    if (saved !== null && saved !== session.snapshot.brushSize) session.setBrushSize(saved);
    return session.onState((st) => {
      if (st.brushSize !== useEditorView.getState().brushSize) useEditorView.getState().set({ brushSize: st.brushSize });
    });
  }, [session]);
}
