// Vectra's package entry loads every feature it has (web fetchers, document splitters, tokenizers,
// OpenAI client): about 4x the load time and ~90 MB more RSS than LocalIndex alone. The store needs
// LocalIndex and the storage interface only, so it imports those modules directly. (Vectra's
// "exports" map hides lib/, hence the path; a Vectra upgrade that moves them fails the build loudly.)
export { LocalIndex } from '../../node_modules/vectra/lib/LocalIndex';
export { FileStorageUtilities } from '../../node_modules/vectra/lib/storage/FileStorageUtilities';
export type { FileDetails, FileStorage, ListFilesFilter } from '../../node_modules/vectra/lib/storage/FileStorage';
export type { IndexItem } from '../../node_modules/vectra/lib/types';
