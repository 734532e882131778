// `engram hook claude-code`: one Claude Code hook payload on stdin per call. Each call appends the
// payload's trace events, masked, to the session's file next to the store (0600). Stop replays the
// session through the capture pipeline and stores the episodes that ended so far; SessionEnd stores the
// rest and removes the files. A replay skips the episodes an earlier one stored (their keys are kept in
// the session's .stored file), so nothing is stored twice. Only Stop and SessionEnd open the store, and
// only they load it (`storing`): the hook's own bundle (src/hookMain.ts) carries none of it.
import * as fs from 'fs';
import * as path from 'path';
import { claudeHookEvents } from './core/capture/claudeCode';
import { maskDeep } from './core/mask';
import type { MemoryStore } from './store/memoryStore';
import type { replayLines } from './cliReplay';

/** What storing episodes takes, loaded at Stop and SessionEnd only. */
export interface HookStoring { MemoryStore: typeof MemoryStore; replayLines: typeof replayLines }

interface Io { out(s: string): void; err(s: string): void; stdin(): AsyncIterable<string> }

const MAX_PAYLOAD_CHARS = 8 * 1024 * 1024;
const MAX_FILE_CHARS = 512 * 1024;

export async function runHook(client: string | undefined, storeDir: string, folder: string, io: Io, storing: () => Promise<HookStoring>): Promise<number> {
  if (client !== 'claude-code') { io.err('engram hook: the only client is "claude-code" (engram hook claude-code)\n'); return 2; }
  let raw = '';
  for await (const line of io.stdin()) {
    raw += line + '\n';
    if (raw.length > MAX_PAYLOAD_CHARS) { io.err('engram hook: the hook input is too large; ignored\n'); return 0; }
  }
  let payload: unknown;
  try { payload = JSON.parse(raw); } catch { io.err('engram hook: the hook input is not JSON; ignored\n'); return 0; }
  const cwd = typeof (payload as { cwd?: unknown })?.cwd === 'string' ? (payload as { cwd: string }).cwd : folder;
  const project = process.env.CLAUDE_PROJECT_DIR || cwd;
  const r = claudeHookEvents(payload, {
    project, now: Date.now(),
    readText: file => {
      try { const st = fs.statSync(file); return st.isFile() && st.size <= MAX_FILE_CHARS ? fs.readFileSync(file, 'utf8') : undefined; } catch { return undefined; }
    },
  });
  if ('error' in r) { io.err(`engram hook: ${r.error}; ignored\n`); return 0; }
  const dir = path.join(storeDir, 'agent-sessions');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${r.sessionId}.jsonl`);
  if (r.events.length) {
    // Masked before it touches disk, like everything else Engram writes.
    const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_APPEND | (fs.constants.O_NOFOLLOW ?? 0), 0o600);
    try { fs.writeSync(fd, r.events.map(e => JSON.stringify(maskDeep(e))).join('\n') + '\n'); } finally { fs.closeSync(fd); }
  }
  if (!r.ends && !r.stop) return 0;
  let lines: string[] = [];
  try { lines = fs.readFileSync(file, 'utf8').split('\n'); } catch { /* no events yet */ }
  const storedFile = path.join(dir, `${r.sessionId}.stored`);
  const stored = readStored(storedFile);
  if (lines.some(l => l.trim())) {
    const { MemoryStore, replayLines } = await storing();
    const store = await MemoryStore.open(path.resolve(storeDir), { workspaceId: path.basename(folder) });
    try {
      const report = await replayLines(store, lines, { scope: 'workspace', workspace: path.basename(folder), agent: 'claude-code' }, { finish: r.ends, stored });
      if (!r.ends) writeStored(storedFile, [...stored, ...report.stored]);
      io.err(`engram hook: session ${r.sessionId}: ${report.episodes.length} episode(s), ${report.lessons.length} lesson(s) stored${r.ends ? '' : `${report.open ? `; ${report.open} still open` : ''} (the session goes on)`}\n`);
    } finally {
      await store.close();
    }
  }
  if (r.ends) for (const f of [file, storedFile]) fs.rmSync(f, { force: true });
  return 0;
}

/** Keys of the episodes this session already stored (an unreadable file: none, so at worst a repeat). */
function readStored(file: string): Set<string> {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    return new Set(Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : []);
  } catch { return new Set(); }
}

function writeStored(file: string, keys: string[]): void {
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(keys), { mode: 0o600 });
  fs.renameSync(tmp, file);
}
