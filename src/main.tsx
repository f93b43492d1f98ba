import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './index.css';
import { App } from './app/App';

// Opt-in hooks for the end-to-end tests (a page that defines `window.__spocTestHooks = {}` before
// the app loads), like perfProbe.ts: code paths no button reaches yet, driven in real Chromium.
const hooks = (globalThis as { __spocTestHooks?: Record<string, unknown> }).__spocTestHooks;
if (hooks) {
  void import('./io/video/sourceFrames').then((m) => {
    hooks.openSourceFrames = m.openSourceFrames;
  });
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
