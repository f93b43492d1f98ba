/** Instance numbers at their seeds with the region's box, following their regions after every committed change or new tag. */
import { useEffect, useState } from 'react';
import { Rect, Text } from 'react-konva';
import { resolveInstances } from '../../instances';
import type { CanvasOverlayProps } from '../canvasOverlays';
import { useStageData } from '../useStageData';

export function InstanceLabelsOverlay({ session, scale: s, stage }: CanvasOverlayProps) {
  const [regions, setRegions] = useState(() => resolveInstances(session.map, session.tags));
  useEffect(() => {
    const update = () => setRegions(resolveInstances(session.map, session.tags));
    let revision = session.snapshot.revision;
    const offState = session.onState((st) => {
      if (st.revision === revision) return;
      revision = st.revision;
      update();
    });
    const offFrame = session.onFrame(update);
    update();
    return () => {
      offState();
      offFrame();
    };
  }, [session]);
  useStageData(stage, 'data-instances', regions.map((r) => r.id).join(','));
  return regions.map((r) => {
    const colour = r.label === 2 ? '#86efac' : '#fca5a5';
    return [
      <Rect key={`box${r.id}`} x={r.box.x} y={r.box.y} width={r.box.w} height={r.box.h} stroke={colour} strokeWidth={1 / s} dash={[4 / s, 4 / s]} />,
      <Text key={`id${r.id}`} x={r.x + 2 / s} y={r.y - 14 / s} text={`#${r.id}`} fontSize={13 / s} fill="#fff" stroke="#000" strokeWidth={0.4 / s} />,
    ];
  });
}
