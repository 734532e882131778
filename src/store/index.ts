// What dist/store.js offers the extension (loaded lazily through src/vscode/storeLoader.ts) and tests.
export { MemoryStore } from './memoryStore';
export type { StoreOptions, StoreStats, ImportReport, ImportLinesOptions } from './memoryStore';
export { openInBackground, type OpeningStore } from './storeOpening';
// The pattern pass the window runs in the background (the CLI runs it after writing episodes).
export { runPatternPass } from './patternPass';
export type { PatternPassOptions, PatternPassResult } from './patternPass';
export type { CleanupPolicy } from '../core/expiry';
export type { Embedder } from './embedder';
export { HashEmbedder } from './hashEmbedder';
export {
  TransformersEmbedder, EmbedderUnavailableError, createEmbedder,
  DEFAULT_MODEL, downloadModel, resolveModel, ModelNotFoundError, ModelDownloadError,
} from './transformersEmbedder';
export type {
  TransformersEmbedderOptions, EmbedderChoice, DownloadOptions, DownloadProgress, ModelLocation, ResolveOptions,
} from './transformersEmbedder';
export { StoreWriteError } from './eventLog';
export { boundedLines, OversizedLine } from './lineReader';
export { LockTimeoutError } from './lock';
export { parseImportLine, toExportLine } from '../core/importFormat';
// Constraint checks run on RE2 (re2js), which stays out of the extension's entry bundle.
export { checkMatches, validateCheck, MAX_SCAN_CHARS } from '../core/checkPattern';
export { mergeTeamLines, mergeTeamLinesAsync, teamEdit, teamFileTooLarge, toTeamLine, MAX_TEAM_FILE_BYTES } from '../core/team';
export type { ImportOptions, ParseResult } from '../core/importFormat';
// The window publishes its store for the CLI and `engram mcp` (src/store/location.ts).
export { publishModel, publishPersonal, publishStore } from './location';
