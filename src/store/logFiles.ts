// The names of the event log's files in a store folder, apart from the log itself: the store's location
// (store/location.ts) checks for them without loading the log's reader, which the hook's own bundle
// (src/hookMain.ts, run on every Claude Code tool call) must not carry.
export const EVENTS_FILE = 'events.jsonl';
export const EVENTS_PREV_FILE = 'events.prev.jsonl';
export const SNAPSHOT_FILE = 'snapshot.json';
export const SNAPSHOT_PREV_FILE = 'snapshot.prev.json';
