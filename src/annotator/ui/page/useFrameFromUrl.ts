/**
 * The session follows the URL when it changes from outside (links, back / forward, typed). Frame
 * commands tell the session first, so the URL they write next finds it already on its way there.
 */
import { useEffect } from 'react';
import { parseRoute } from '../../../workspace/router';
import { notify, messageOf } from '../../../workspace/notices';
import type { EditorSession } from '../../session/editorSession';

export function useFrameFromUrl(session: EditorSession, clipId: string): void {
  useEffect(() => {
    const follow = () => {
      const here = parseRoute(window.location.hash);
      if (here.name !== 'clip' || here.clipId !== clipId) return;
      void session.goToFrame(here.frame).catch((err: unknown) => notify('error', `Could not open frame ${here.frame + 1}: ${messageOf(err)}`));
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [session, clipId]);
}
