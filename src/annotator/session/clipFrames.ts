/**
 * The clip's frames as this tab knows them, apart from the one shown: their label maps (kept and
 * read ahead, FrameMaps), their instance tags, and which frames' stored history has been replayed
 * into the undo stacks. Reads from the store wait for pending writes to land, so a frame left a
 * moment ago never comes back without its last stroke.
 */
import type { SpocDb } from '../../store/db';
import { getLayer } from '../../store/layers';
import { listRevisions } from '../../store/revisions';
import type { Clip, LayerObject, LayerRelation, LayerSource } from '../../store/types';
import type { LabelMap } from '../../masks/labelMap';
import { STATE_CODEC, type PixelCodec } from '../pixelCodec';
import type { History } from '../history';
import { parseInstanceTags, type InstanceTag } from '../instances';
import { FrameMaps } from './frameMaps';

export class ClipFrames {
  private readonly maps = new FrameMaps((index) => this.read(index));
  private readonly historyLoaded = new Set<number>();
  /** Instance tags per frame, as loaded or edited in this tab. */
  private readonly tags = new Map<number, InstanceTag[]>();
  /** Objects per frame as last read or written (their per-frame facts outlive each edit: pixelCodec.ts layerOf). */
  private readonly objects = new Map<number, LayerObject[]>();
  /** Relations per frame as last read or written (every write keeps them: frameWrite.ts). */
  private readonly relations = new Map<number, LayerRelation[]>();

  /** @param writesLanded settles once the writes queued so far are stored. */
  constructor(
    private readonly db: SpocDb,
    private readonly clip: Clip,
    private readonly source: LayerSource,
    private readonly history: History,
    private readonly writesLanded: () => Promise<void>,
    private readonly codec: PixelCodec = STATE_CODEC,
  ) {}

  /** Frame k's map: kept, being read, or read from the store now. */
  map(index: number): Promise<LabelMap> {
    return this.maps.get(index);
  }

  /** Keeps frame k's map (shown or edited here), the most recent of the few kept. */
  keep(index: number, map: LabelMap): void {
    this.maps.keep(index, map);
  }

  /** Reads frame k ahead of need (FrameMaps.readAhead). */
  readAhead(index: number, unwanted: () => boolean): void {
    this.maps.readAhead(index, unwanted);
  }

  /** Replays frame k's stored revisions into the undo stacks, once per session. */
  async loadHistory(index: number): Promise<void> {
    if (this.historyLoaded.has(index)) return;
    const revisions = await listRevisions(this.db, this.clip.id, this.source, index);
    if (this.historyLoaded.has(index)) return;
    this.history.loadFrame(index, revisions);
    this.historyLoaded.add(index);
  }

  /** Frame k's instance tags as this tab knows them (read with its map). */
  tagsAt(index: number): InstanceTag[] {
    return this.tags.get(index) ?? [];
  }

  setTags(index: number, tags: InstanceTag[]): void {
    this.tags.set(index, tags);
  }

  /** Frame k's objects as this tab last read or wrote them. */
  objectsAt(index: number): LayerObject[] {
    return this.objects.get(index) ?? [];
  }

  setObjects(index: number, objects: LayerObject[] | undefined): void {
    this.objects.set(index, objects ?? []);
  }

  /** Frame k's relations as this tab last read or wrote them. */
  relationsAt(index: number): LayerRelation[] {
    return this.relations.get(index) ?? [];
  }

  setRelations(index: number, relations: LayerRelation[]): void {
    this.relations.set(index, relations);
  }

  /** Forgets every map, read under way, tag and replayed history (another tab changed the clip). */
  clear(): void {
    this.history.reset();
    this.historyLoaded.clear();
    this.maps.clear();
    this.tags.clear();
    this.objects.clear();
    this.relations.clear();
  }

  private async read(index: number): Promise<LabelMap> {
    await this.writesLanded();
    const layer = await getLayer(this.db, this.clip.id, this.source, index);
    if (!this.tags.has(index)) this.tags.set(index, parseInstanceTags(layer?.instances));
    if (!this.objects.has(index)) this.objects.set(index, layer?.objects ?? []);
    if (!this.relations.has(index)) this.relations.set(index, layer?.relations ?? []);
    return this.codec.mapOf(layer, this.clip.width, this.clip.height);
  }
}
