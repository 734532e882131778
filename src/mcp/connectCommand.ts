// The `engram connect|disconnect CLIENT [--user] [--hooks]` commands: what changed on stdout, errors on stderr.
import { CLIENTS, connect, connectHooks, describeChange, disconnect, disconnectHooks, isClient, TOKEN_ENV, TOKEN_INPUT } from './connect';

interface Io { out(s: string): void; err(s: string): void }

/** `cli`: the CLI entry the client will run (`node <cli> mcp`), dist/cli.js; this code runs from a bundle it loads. */
export function runConnect(cmd: 'connect' | 'disconnect', client: string | undefined, folder: string, io: Io, cli: string, opts: { hooks?: boolean; user?: boolean; server?: string } = {}): number {
  const hooks = !!opts.hooks;
  if (!isClient(client)) {
    io.err(`engram: ${cmd} needs one of ${CLIENTS.join(', ')}${client ? ` (not "${client}")` : ''}\n`);
    return 2;
  }
  if (hooks && client !== 'claude-code') { io.err(`engram: --hooks is for claude-code only\n`); return 2; }
  if (opts.server !== undefined && cmd === 'disconnect') { io.err('engram: disconnect takes no --server (it removes the entry of either kind)\n'); return 2; }
  try {
    const r = cmd === 'connect' ? connect(client, folder, cli, { user: opts.user, server: opts.server }) : disconnect(client, folder, { user: opts.user });
    io.out(describeChange(client, r));
    if (opts.server && cmd === 'connect') {
      io.out(client === 'vscode'
        ? `vscode: VS Code asks for the token once (input "${TOKEN_INPUT}") and keeps it in its secret storage\n`
        : `${client}: set ${TOKEN_ENV} to a token from \`engram serve token create\` where ${client} runs\n`);
    }
    // Claude Code's hooks capture the agent's own failing commands and fixes: only with --hooks (consent);
    // disconnect always removes ours.
    if (client === 'claude-code' && (hooks || cmd === 'disconnect')) {
      const h = cmd === 'connect' ? connectHooks(folder, cli) : disconnectHooks(folder);
      if (cmd === 'connect' || h.change !== 'absent') io.out(`claude-code hooks: ${h.change} ${h.file}${h.entry ? ` (${String(h.entry.command)})` : ''}\n`);
    }
    return 0;
  } catch (e) {
    io.err(`engram: ${(e as Error).message}\n`);
    return 1;
  }
}
