/**
 * Hash routes, so the app works from any static host (and from file-less previews) without server
 * rewrites: #/ projects, #/p/<projectId> one project's clips, #/c/<clipId>/<frame> a clip at a frame.
 */
import { useSyncExternalStore } from 'react';

export type Route =
  | { name: 'projects' }
  | { name: 'project'; projectId: string }
  | { name: 'clip'; clipId: string; frame: number };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] === 'p' && parts[1]) return { name: 'project', projectId: parts[1] };
  if (parts[0] === 'c' && parts[1]) {
    const frame = Number.parseInt(parts[2] ?? '0', 10);
    return { name: 'clip', clipId: parts[1], frame: Number.isFinite(frame) && frame >= 0 ? frame : 0 };
  }
  return { name: 'projects' };
}

/**
 * Which view a route shows: the projects list, one project, one clip. Moving between frames of a
 * clip stays in its view (the editor is not remounted, notices raised there stay).
 */
export function viewKey(route: Route): string {
  return route.name === 'clip' ? `clip:${route.clipId}` : route.name === 'project' ? `project:${route.projectId}` : 'projects';
}

export function hrefOf(route: Route): string {
  switch (route.name) {
    case 'projects':
      return '#/';
    case 'project':
      return `#/p/${encodeURIComponent(route.projectId)}`;
    case 'clip':
      return `#/c/${encodeURIComponent(route.clipId)}/${route.frame}`;
  }
}

export function navigate(route: Route, options: { replace?: boolean } = {}): void {
  const href = hrefOf(route);
  if (options.replace) history.replaceState(null, '', href);
  else history.pushState(null, '', href);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return parseRoute(hash);
}
