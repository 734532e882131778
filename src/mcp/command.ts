// The `engram mcp` command: a stderr logger (stdout is the protocol), the stores opened in the background
// (so `initialize` is answered at once; each tool call waits for what it needs) and the server over them.
import type { Logger } from '../core/types';
import * as path from 'path';
import { windowEmbedder } from '../store/transformersEmbedder';
import { MemoryStore } from '../store/memoryStore';
import { version } from '../../package.json';
import { runMcpServer } from './server';

interface ErrIo { err(s: string): void }

/** Info and above on stderr; ENGRAM_MCP_DEBUG=1 adds debug and trace. */
export function stderrLogger(io: ErrIo): Logger {
  const debug = !!process.env.ENGRAM_MCP_DEBUG;
  const line = (level: string, msg: string | Error, args: unknown[]) =>
    io.err(`[${level}] ${msg instanceof Error ? msg.stack ?? msg.message : msg}${args.length ? ' ' + args.map(a => (a instanceof Error ? a.message : String(a))).join(' ') : ''}\n`);
  return {
    trace: (m, ...a) => { if (debug) line('trace', m, a); },
    debug: (m, ...a) => { if (debug) line('debug', m, a); },
    info: (m, ...a) => line('info', m, a),
    warn: (m, ...a) => line('warn', m, a),
    error: (m, ...a) => line('error', m, a),
  };
}

export interface McpCommandOptions {
  dir: string;
  folder: string;
  cwd: string;
  rootKnown: boolean;
  workspace: string;
  personal?: string;
  /** The model folder the window published (store/location.ts), when its files are here. */
  model?: string;
  io: ErrIo;
}

export async function runMcpCommand(opts: McpCommandOptions): Promise<number> {
  const log = stderrLogger(opts.io);
  // The window's model when it published one, loaded in the background like the store.
  const embedder = windowEmbedder(opts.model, path.join(__dirname, 'embedWorker.js'))
    .then(r => { log.info(`engram mcp: ${r.note}`); return r.embedder; }, () => undefined);
  const store = embedder.then(e => MemoryStore.open(opts.dir, { workspaceId: opts.workspace, logger: log, ...(e ? { embedder: e } : {}) }));
  // Read only: memories are written to the workspace store; the personal one is the window's to change.
  const personal = opts.personal
    ? embedder.then(e => MemoryStore.open(opts.personal!, { readOnly: true, logger: log, ...(e ? { embedder: e } : {}) }))
      .catch(e => { log.warn(`personal store ${opts.personal} not opened: ${(e as Error).message}`); return undefined; })
    : undefined;
  store.catch(() => undefined); // reported by the server and by each tool call
  try {
    await runMcpServer({ store, personal, folder: opts.folder, cwd: opts.cwd, rootKnown: opts.rootKnown, workspace: opts.workspace, version, log });
  } finally {
    await (await personal)?.close();
    await (await store.catch(() => undefined))?.close();
    (await embedder)?.dispose();
  }
  return 0;
}
