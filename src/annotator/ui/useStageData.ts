/**
 * Publishes one fact an overlay shows as a `data-*` attribute of the canvas container (what the e2e
 * specs read, next to data-frame and data-view); undefined removes it.
 */
import { useLayoutEffect } from 'react';

export function useStageData(stage: HTMLElement, attribute: `data-${string}`, value: string | undefined): void {
  useLayoutEffect(() => {
    if (value === undefined) stage.removeAttribute(attribute);
    else stage.setAttribute(attribute, value);
  }, [stage, attribute, value]);
}
