// The `engram connect|disconnect CLIENT` commands: one line per change on stdout, errors on stderr.
import { CLIENTS, connect, describeChange, disconnect, isClient } from './connect';

interface Io { out(s: string): void; err(s: string): void }

export function runConnect(cmd: 'connect' | 'disconnect', client: string | undefined, folder: string, io: Io): number {
  if (!isClient(client)) {
    io.err(`engram: ${cmd} needs one of ${CLIENTS.join(', ')}${client ? ` (not "${client}")` : ''}\n`);
    return 2;
  }
  try {
    // This very bundle is what the client will run: `node <this cli.js> mcp`.
    const r = cmd === 'connect' ? connect(client, folder, __filename) : disconnect(client, folder);
    io.out(describeChange(client, r));
    return 0;
  } catch (e) {
    io.err(`engram: ${(e as Error).message}\n`);
    return 1;
  }
}
