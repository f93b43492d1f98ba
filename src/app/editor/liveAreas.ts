/**
 * The editor's `liveAreas` slot: the session's one live area store (metrics/panels/liveStore.ts).
 * The editor attaches it and hands it down; the timeline's sparkline and the metric panels read
 * the same object, so they show the same areas after every stroke.
 */
import { liveAreaStoreFor, type LiveAreaStore, type PanelSession } from '../../metrics/panels/liveStore';
import { recordPerf } from '../../annotator/ui/perfProbe';

export const liveAreas = (session: PanelSession): LiveAreaStore => liveAreaStoreFor(session, (ms) => recordPerf('progress areas from box', ms));
