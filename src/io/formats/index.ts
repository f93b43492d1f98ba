/**
 * Interchange formats: pure codecs between ClipAnnotations (model.ts) and files. No DOM, no Dexie;
 * the same functions serve the app, workers and the CLI (`convert`). See docs/formats.md.
 */
export * from './model';
export { annotationsFromStore, storeRowsFromAnnotations, type StoreClipRows, type StoreRowsOut } from './storeRows';
export { exportWtc, importWtc, wtcOscFolder, WTC_MASKS_DIR, WTC_META_DIR, type WtcExportOptions, type WtcImportOptions } from './wtc';
export { parseWtcMeta, wtcMetaJson, WTC_META_FORMAT, WTC_META_VERSION, type WtcMeta } from './wtcMeta';
export { exportDavis, importDavis, looksLikeDavis, DAVIS_FRAMES_DIR, DAVIS_MASKS_DIR, type DavisExportOptions, type DavisImportOptions } from './davis';
export { exportCoco, exportCocoFile, COCO_CATEGORIES, COCO_FORMAT, type CocoExportOptions, type CocoDatasetJson } from './cocoExport';
export { importCoco, type CocoImportOptions } from './cocoImport';
export { exportVisor, exportVisorFile, importVisor, VISOR_DEFAULT_NAMES, type VisorExportOptions, type VisorImportOptions, type VisorJson } from './visor';
export { traceContours, type Ring } from './contours';
export { resolveStates, unionCounts, xorCounts, OVERLAP_POLICIES, type OverlapPolicy } from './stateMasks';
export { parseJsonText, JsonReader, MAX_JSON_CHARS } from './json';
export { exportFormat, importFormat, FORMAT_IDS, type FormatId, type ExportOptionsByFormat, type ImportOptionsByFormat } from './convert';
