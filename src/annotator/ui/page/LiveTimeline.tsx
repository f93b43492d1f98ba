import { useMemo, type ComponentProps } from 'react';
import type { LayerAreas } from '../../../store/layers';
import { Timeline, largestArea } from '../Timeline';
import type { EditorSlotContext } from '../editorSlots';
import { useGtAreas } from '../useGtAreas';

/** The timeline with the areas as the editor knows them: re-rendered alone as a stroke changes them, not the whole editor. */
export function LiveTimeline({ areas, editedAreas, ...rest }: Omit<ComponentProps<typeof Timeline>, 'areas'> & { areas: readonly LayerAreas[]; editedAreas: EditorSlotContext['editedAreas'] }) {
  const storedLargest = useMemo(() => largestArea(areas), [areas]);
  return <Timeline areas={useGtAreas(areas, editedAreas)} scaleArea={storedLargest} {...rest} />;
}
