// The CLI's one door into src/server (cli.ts imports it lazily): `engram serve …`, `engram team push`,
// and the commands that take `--server URL`.
import { REMOTE_COMMANDS, runRemote, runTeamPush, type CliArgs } from './cliRemote';
import { runServeCommand } from './serveCommand';

interface Io { out(s: string): void; err(s: string): void }

export async function runServerCli(cmd: string, rest: string[], args: CliArgs, io: Io): Promise<number> {
  if (cmd === 'serve') return runServeCommand(rest, args, io);
  if (cmd === 'team') return runTeamPush(rest, args, io);
  if ((REMOTE_COMMANDS as readonly string[]).includes(cmd)) return runRemote(cmd, rest, args, io);
  io.err(`engram: --server does not apply to "${cmd}" (it does to ${REMOTE_COMMANDS.join(', ')})\n`);
  return 2;
}
