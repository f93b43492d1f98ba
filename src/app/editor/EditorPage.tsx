/**
 * The editor as the app shows it: the annotator's page with the other rooms plugged into its slots
 * — review (lifecycle bar, pins, flags and comments), metrics docks and AI assist. Adding a panel
 * to the editor happens here, not in src/annotator.
 */
import { AnnotatorPage } from '../../annotator/ui/AnnotatorPage';
import { IncompleteClipNotice, useIncompleteClip } from '../import/IncompleteImports';
import { TrashedClipNotice, useTrashedClip } from '../dashboard/TrashedClipNotice';
import type { EditorSlotContext, EditorSlots } from '../../annotator/ui/editorSlots';
import { MetricsDock } from '../../metrics/panels/MetricsDock';
import { liveAreas } from './liveAreas';
import { ReviewBar } from '../../review/ui/ReviewBar';
import { CommentPlacing } from '../../review/ui/CommentPlacing';
import { ReviewSidebar } from '../../review/ui/ReviewSidebar';
import { SideBySideView } from '../../review/ui/SideBySideView';
import { AgreementPanel } from '../../review/ui/AgreementPanel';
import { AiAssist } from '../../inference/ui/AiAssist';
import { AiToolStatus } from '../../inference/ui/AiToolStatus';
import { Proposals } from '../../inference/ui/proposals/Proposals';
import { PropagatePanel } from '../../inference/ui/propagate/PropagatePanel';
import { lowConfidenceStore } from '../../inference/ui/propagate/propagationNotes';
import { SuggestStatesFallback } from '../../inference/ui/fallback/SuggestStates';
import { ReviewerOverlay, ReviewerToggle } from '../../review/ui/ReviewerMode';
import { WatchPanel } from './WatchPanel';
import { ClipPresence } from '../team/ClipPresence';
import { REVIEW_ACTIONS } from '../../review/ui/reviewActions';
import { useReviewMasksRequest } from '../../review/ui/reviewMasks';
import { ASSIST_ACTIONS } from '../../inference/ui/assistActions';
import { InterpolatePanel } from '../../objects/ui/InterpolatePanel';
import { OBJECT_ACTIONS } from '../../objects/ui/objectActions';
import { ROOM_OVERLAYS } from './roomOverlays';
import type { Action } from '../../annotator/actions';

function HeaderSlot({ db, clip, session, images }: EditorSlotContext) {
  return (
    <>
      <ReviewBar db={db} clip={clip} />
      <ClipPresence db={db} clip={clip} />
      <ReviewerToggle />
      <AiAssist session={session} images={images} />
    </>
  );
}

function ToolsSlot({ db, clip, session, images, canvas, frameIndex, goToFrame }: EditorSlotContext) {
  return (
    <>
      <PropagatePanel session={session} images={images} frameIndex={frameIndex} goToFrame={goToFrame} />
      <Proposals db={db} clip={clip} session={session} images={images} canvas={canvas} />
      <SuggestStatesFallback session={session} images={images} />
      {session.codec.kind === 'objects' && <InterpolatePanel db={db} clip={clip} session={session} images={images} frameIndex={frameIndex} />}
    </>
  );
}

function CanvasOverlaySlot({ db, clip, session, frameIndex, images, goToFrame, frames, sources }: EditorSlotContext) {
  return (
    <>
      <WatchPanel db={db} clip={clip} frames={frames} goToFrame={goToFrame} />
      <CommentPlacing clip={clip} session={session} />
      <ReviewerOverlay db={db} clip={clip} session={session} frameIndex={frameIndex} goToFrame={goToFrame} />
      <SideBySideView db={db} clip={clip} frameIndex={frameIndex} images={images} sources={sources} />
      <AiToolStatus session={session} />
    </>
  );
}

function DockSlot({ db, session, clip, frames, areas, frameIndex, goToFrame }: EditorSlotContext) {
  return <MetricsDock db={db} session={session} store={liveAreas(session)} clip={clip} frames={frames} storedAreas={areas} current={frameIndex} onPick={goToFrame} />;
}

function ReviewSlot({ db, clip, session, frameIndex, goToFrame, sources }: EditorSlotContext) {
  return (
    <ReviewSidebar db={db} clip={clip} frameIndex={frameIndex} onPick={goToFrame}>
      <AgreementPanel db={db} clip={clip} session={session} frameIndex={frameIndex} onPick={goToFrame} sources={sources} />
    </ReviewSidebar>
  );
}

/** The rooms' actions in the editor's one table (palette, shortcut sheet, keys). */
const ROOM_ACTIONS: readonly Action[] = [...REVIEW_ACTIONS, ...ASSIST_ACTIONS, ...OBJECT_ACTIONS];
const useRoomActions = () => ROOM_ACTIONS;

const slots: EditorSlots = { header: HeaderSlot, tools: ToolsSlot, canvasOverlay: CanvasOverlaySlot, canvasOverlays: ROOM_OVERLAYS, beforeSidePanel: DockSlot, afterSidePanel: ReviewSlot, useActions: useRoomActions, useMasksRequest: useReviewMasksRequest, liveAreas, timelineFlags: lowConfidenceStore };

export function EditorPage({ clipId, frame }: { clipId: string; frame: number }) {
  // An import that did not finish has a clip row promising frames that are not stored: the editor
  // would open a session, take the clip's lock and fail on the first missing image. Refuse it first.
  const incomplete = useIncompleteClip(clipId);
  // A clip in the trash is hidden everywhere else; edits to it would be invisible until a restore.
  const trashed = useTrashedClip(clipId);
  if (incomplete === undefined || trashed === undefined) return null;
  if (incomplete) return <IncompleteClipNotice {...incomplete} />;
  if (trashed) return <TrashedClipNotice {...trashed} />;
  return <AnnotatorPage clipId={clipId} frame={frame} slots={slots} />;
}
