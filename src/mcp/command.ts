// The `engram mcp` command: a stderr logger (stdout is the protocol) and the server run over the store
// the CLI opened.
import type { Logger } from '../core/types';
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

export async function runMcpCommand(store: MemoryStore, opts: { folder: string; workspace: string; personal?: string; io: ErrIo }): Promise<number> {
  const log = stderrLogger(opts.io);
  // Read only: memories are written to the workspace store; the personal one is the window's to change.
  const personal = opts.personal ? await MemoryStore.open(opts.personal, { readOnly: true, logger: log }).catch(e => { log.warn(`personal store ${opts.personal} not opened: ${(e as Error).message}`); return undefined; }) : undefined;
  try {
    await runMcpServer({ store, personal, folder: opts.folder, workspace: opts.workspace, version, log });
  } finally {
    await personal?.close();
  }
  return 0;
}
