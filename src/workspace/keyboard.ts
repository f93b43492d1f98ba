/**
 * Who a key press belongs to. Editor rooms listen on `window` (some in the capture phase); a key
 * typed into a field, or pressed while a dialog is open, is never a shortcut.
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);
}

export function dialogOpen(): boolean {
  return document.querySelector('[role="dialog"]') !== null;
}
