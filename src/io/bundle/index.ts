/**
 * Project bundles: one zip with everything of a project, to move work between machines and people.
 * Format: format.ts and docs/formats.md ("Project bundle"). Export streams (exportBundle.ts); import
 * checks everything before one transaction and merges by clip (importBundle.ts, merge.ts).
 */
export {
  BUNDLE_FORMAT,
  BUNDLE_FORMAT_VERSION,
  BUNDLE_EXTENSION,
  MANIFEST_PATH,
  projectMetaPrefix,
  type BundleCounts,
  type BundleManifest,
  type ManifestEntry,
} from './format';
export { exportBundle, bundleFileName, type ExportBundleOptions, type BundleExportSummary } from './exportBundle';
export {
  importBundle,
  readBundle,
  type ImportBundleOptions,
  type BundleImportResult,
  type ClipImportReport,
  type ClipOutcome,
  type ReadBundle,
} from './importBundle';
export { bundleLabel, theirSourceName, type ClipConflict, type ConflictChoice, type SideSummary } from './merge';
export { BundleCancelled, type BundleProgress } from './progress';
export { BlobSink, ChunkSink, writableSink, type BundleSink } from './sinks';
export { DEFAULT_ZIP_READ_LIMITS, type ZipReadLimits } from './zipReader';
