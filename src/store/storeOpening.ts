// A store being opened in the background, for a server that must answer before the store is ready
// (`engram mcp` answers `initialize` at once): start the open, hand `ready` to whatever needs the store,
// close it on shutdown whether or not the open finished. An open that fails is reported through `ready`
// (every await of it rejects with the same error), never as an unhandled rejection.
import { MemoryStore, type StoreOptions } from './memoryStore';

export interface OpeningStore {
  /** The open store; awaited by each request that needs it (resolves at once once open). */
  readonly ready: Promise<MemoryStore>;
  /** The store if it is open already, else undefined (never waits). */
  current(): MemoryStore | undefined;
  /** Closes the store once it is open (paying owed compactions, writing its view); nothing when the open failed. */
  close(): Promise<void>;
}

export function openInBackground(dir: string, opts: StoreOptions = {}): OpeningStore {
  let open: MemoryStore | undefined;
  const ready = MemoryStore.open(dir, opts).then(s => { open = s; return s; });
  ready.catch(() => undefined); // seen by whoever awaits `ready`; not an unhandled rejection meanwhile
  return {
    ready,
    current: () => open,
    close: async () => {
      const s = await ready.catch(() => undefined);
      await s?.close();
    },
  };
}
