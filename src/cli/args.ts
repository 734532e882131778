// The CLI's arguments: what every command takes, what each one takes besides, and the parser. Shared by
// the entry (dist/cli.js) and the command bundles it loads; each bundle has its own copy of this file,
// so a bundle catches its own UsageError (an instanceof across two copies would never match).

export class UsageError extends Error {}

export interface Args { positional: string[]; flags: Map<string, string | true> }

const VALUE_FLAGS = new Set(['store', 'file', 'k', 'out', 'reason', 'queries', 'kinds', 'owners', 'outcome', 'batch', 'workspace', 'folder',
  'database', 'data', 'host', 'port', 'rate', 'tenant', 'principal', 'role', 'server', 'visibility']);

/** Options every command takes. */
const COMMON_FLAGS = ['store', 'workspace', 'folder', 'json', 'help'];
/** Options per command: anything else is a usage error, never silently ignored (a typo must not change the answer). */
export const COMMAND_FLAGS: Record<string, readonly string[]> = {
  import: ['trusted', 'batch', 'server', 'visibility'],
  recall: ['file', 'k', 'kinds', 'owners', 'outcome', 'stdin', 'queries', 'proactive', 'server'],
  export: ['out'],
  stats: [],
  show: ['server'],
  forget: ['reason', 'server'],
  feedback: ['reason', 'server'],
  replay: [],
  ingest: [],
  hook: [],
  mcp: [],
  where: [],
  connect: ['hooks', 'user', 'server'],
  disconnect: ['hooks', 'user'],
  serve: ['database', 'data', 'host', 'port', 'rate', 'no-vectors', 'tenant', 'principal', 'role'],
  team: ['server'],
};

/** Throws a UsageError naming the first option the command does not take. */
export function checkFlags(cmd: string, args: Args): void {
  const allowed = COMMAND_FLAGS[cmd];
  if (!allowed) return;
  for (const name of args.flags.keys()) {
    if (COMMON_FLAGS.includes(name) || allowed.includes(name)) continue;
    const takes = [...allowed, ...COMMON_FLAGS].map(f => `--${f}`).join(', ');
    throw new UsageError(`unknown option --${name} for "${cmd}" (it takes ${takes})`);
  }
}

export function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') { positional.push(...argv.slice(i + 1)); break; }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      if (eq > 0) flags.set(name, a.slice(eq + 1));
      else if (VALUE_FLAGS.has(name)) {
        if (i + 1 >= argv.length) throw new UsageError(`--${name} needs a value`);
        flags.set(name, argv[++i]);
      } else flags.set(name, true);
    } else if (a === '-h') {
      flags.set('help', true);
    } else {
      positional.push(a);
    }
  }
  return { positional, flags };
}

export function str(args: Args, name: string): string | undefined {
  const v = args.flags.get(name);
  return typeof v === 'string' ? v : undefined;
}

export function list<T extends string>(args: Args, name: string, allowed: readonly T[]): T[] | undefined {
  const v = str(args, name);
  if (v === undefined) return undefined;
  const items = v.split(',').map(s => s.trim()).filter(Boolean);
  for (const x of items) if (!allowed.includes(x as T)) throw new UsageError(`--${name}: "${x}" is not one of ${allowed.join(', ')}`);
  return items as T[];
}

export function need(v: string | undefined, msg: string): string {
  if (!v) throw new UsageError(msg);
  return v;
}

/** What a command prints to and reads from: the entry's (masked) stdout and stderr, and stdin as lines. */
export interface Io { out(s: string): void; err(s: string): void; stdin(): AsyncIterable<string> }
