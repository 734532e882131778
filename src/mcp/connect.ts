// `engram connect <client>` / `engram disconnect <client>`: writes (or removes) the "engram" entry of a
// client's project-level MCP configuration, keeping every other entry and key as it was. Shapes, from
// each client's documentation:
//   Claude Code  .mcp.json          { "mcpServers": { name: { command, args, env? } } }   (cwd: the project)
//   Cursor       .cursor/mcp.json   { "mcpServers": { name: { command, args, env? } } }   (${workspaceFolder} expanded)
//   VS Code      .vscode/mcp.json   { "servers": { name: { type: "stdio", command, args } }, "inputs"?: [] }
import * as fs from 'fs';
import * as path from 'path';

export const CLIENTS = ['claude-code', 'cursor', 'vscode'] as const;
export type ClientName = typeof CLIENTS[number];
export const SERVER_NAME = 'engram';

interface ClientShape { file: string; key: 'mcpServers' | 'servers'; entry(cli: string): Record<string, unknown> }

const SHAPES: Record<ClientName, ClientShape> = {
  // Claude Code starts project servers in the project folder: the server finds the store from there.
  'claude-code': { file: '.mcp.json', key: 'mcpServers', entry: cli => ({ command: 'node', args: [cli, 'mcp'] }) },
  cursor: { file: path.join('.cursor', 'mcp.json'), key: 'mcpServers', entry: cli => ({ command: 'node', args: [cli, 'mcp', '--folder', '${workspaceFolder}'] }) },
  vscode: { file: path.join('.vscode', 'mcp.json'), key: 'servers', entry: cli => ({ type: 'stdio', command: 'node', args: [cli, 'mcp', '--folder', '${workspaceFolder}'] }) },
};

export function isClient(name: string | undefined): name is ClientName {
  return (CLIENTS as readonly string[]).includes(name ?? '');
}

export interface ConnectResult {
  file: string;
  change: 'created' | 'added' | 'updated' | 'unchanged' | 'removed' | 'deleted-file' | 'absent';
  /** The entry written (connect) or removed (disconnect). */
  entry?: Record<string, unknown>;
}

/** The file's JSON object, undefined when there is no file; throws a clear error for anything else. */
function readConfig(file: string): Record<string, unknown> | undefined {
  let raw: string;
  try { raw = fs.readFileSync(file, 'utf8'); } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  let v: unknown;
  try { v = raw.trim() ? JSON.parse(raw) : {}; } catch (e) {
    // Never rewrite what we cannot read back exactly (JSONC comments included): the user's file wins.
    throw new Error(`${file} is not plain JSON (${(e as Error).message}); it was left untouched. Fix it, or add the entry by hand.`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${file} is not a JSON object; it was left untouched.`);
  return v as Record<string, unknown>;
}

function serversOf(config: Record<string, unknown>, key: string, file: string): Record<string, unknown> {
  const s = config[key] ?? {};
  if (typeof s !== 'object' || s === null || Array.isArray(s)) throw new Error(`"${key}" in ${file} is not an object; it was left untouched.`);
  return s as Record<string, unknown>;
}

function write(file: string, config: Record<string, unknown>): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(config, null, 2) + '\n');
  fs.renameSync(tmp, file);
}

function same(a: unknown, b: unknown): boolean { return JSON.stringify(a) === JSON.stringify(b); }

export function connect(client: ClientName, folder: string, cli: string): ConnectResult {
  const shape = SHAPES[client];
  const file = path.join(folder, shape.file);
  const existing = readConfig(file);
  const config = existing ?? {};
  const servers = serversOf(config, shape.key, file);
  const entry = shape.entry(cli);
  const before = servers[SERVER_NAME];
  if (before !== undefined && same(before, entry)) return { file, change: 'unchanged', entry };
  // Key order kept: other servers stay where they were; ours is added at the end.
  config[shape.key] = { ...servers, [SERVER_NAME]: entry };
  write(file, config);
  return { file, change: !existing ? 'created' : before === undefined ? 'added' : 'updated', entry };
}

export function disconnect(client: ClientName, folder: string): ConnectResult {
  const shape = SHAPES[client];
  const file = path.join(folder, shape.file);
  const config = readConfig(file);
  if (!config) return { file, change: 'absent' };
  const servers = serversOf(config, shape.key, file);
  if (!(SERVER_NAME in servers)) return { file, change: 'absent' };
  const { [SERVER_NAME]: removed, ...rest } = servers;
  config[shape.key] = rest;
  // A file holding nothing but our entry was ours: remove it (and its folder when that is empty too).
  if (!Object.keys(rest).length && Object.keys(config).length === 1) {
    fs.rmSync(file);
    if (path.dirname(file) !== folder) { try { fs.rmdirSync(path.dirname(file)); } catch { /* not empty: keep it */ } }
    return { file, change: 'deleted-file', entry: removed as Record<string, unknown> };
  }
  write(file, config);
  return { file, change: 'removed', entry: removed as Record<string, unknown> };
}

export function describeChange(client: ClientName, r: ConnectResult): string {
  const entry = r.entry ? `\n  "${SERVER_NAME}": ${JSON.stringify(r.entry)}` : '';
  switch (r.change) {
    case 'created': return `${client}: created ${r.file} with${entry}\n`;
    case 'added': return `${client}: added to ${r.file} (other entries kept)${entry}\n`;
    case 'updated': return `${client}: updated the "${SERVER_NAME}" entry in ${r.file}${entry}\n`;
    case 'unchanged': return `${client}: ${r.file} already has this entry; nothing changed\n`;
    case 'removed': return `${client}: removed "${SERVER_NAME}" from ${r.file} (other entries kept)\n`;
    case 'deleted-file': return `${client}: deleted ${r.file} (it held only the "${SERVER_NAME}" entry)\n`;
    case 'absent': return `${client}: no "${SERVER_NAME}" entry in ${r.file}; nothing changed\n`;
  }
}

// Claude Code hooks (.claude/settings.json), installed only when asked (`engram connect claude-code --hooks`):
//   { "hooks": { "<Event>": [ { "matcher": "…", "hooks": [ { "type": "command", "command": "…" } ] } ] } }
const HOOK_EVENTS: { event: string; matcher?: string }[] = [
  { event: 'PostToolUse', matcher: 'Bash|Edit|MultiEdit|Write' },
  { event: 'PostToolUseFailure', matcher: 'Bash' },
  { event: 'SessionEnd' },
];

/** Ours: the command runs this CLI's `hook claude-code`. */
const isOurHook = (h: unknown) => typeof (h as { command?: unknown })?.command === 'string' && / hook claude-code$/.test((h as { command: string }).command) && /engram|cli\.js/.test((h as { command: string }).command);

function hookGroups(config: Record<string, unknown>, file: string): Record<string, unknown[]> {
  const h = config.hooks ?? {};
  if (typeof h !== 'object' || h === null || Array.isArray(h)) throw new Error(`"hooks" in ${file} is not an object; it was left untouched.`);
  for (const [k, v] of Object.entries(h)) if (!Array.isArray(v)) throw new Error(`"hooks.${k}" in ${file} is not a list; it was left untouched.`);
  return h as Record<string, unknown[]>;
}

/** Without our groups (a group that held only our hook goes; other hooks stay). */
function withoutOurs(groups: Record<string, unknown[]>): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const [event, list] of Object.entries(groups)) {
    const kept = list.map(g => {
      const hooks = (g as { hooks?: unknown }).hooks;
      if (!Array.isArray(hooks)) return g;
      const rest = hooks.filter(h => !isOurHook(h));
      return rest.length === hooks.length ? g : rest.length ? { ...(g as object), hooks: rest } : undefined;
    }).filter(g => g !== undefined);
    if (kept.length) out[event] = kept;
  }
  return out;
}

export function connectHooks(folder: string, cli: string): ConnectResult {
  const file = path.join(folder, '.claude', 'settings.json');
  const existing = readConfig(file);
  const config = existing ?? {};
  const groups = withoutOurs(hookGroups(config, file));
  const command = `node ${JSON.stringify(cli)} hook claude-code`;
  for (const { event, matcher } of HOOK_EVENTS) {
    groups[event] = [...(groups[event] ?? []), { ...(matcher ? { matcher } : {}), hooks: [{ type: 'command', command }] }];
  }
  const next = { ...config, hooks: groups };
  if (existing && same(existing, next)) return { file, change: 'unchanged', entry: { command } };
  write(file, next);
  return { file, change: existing ? (existing.hooks && same(withoutOurs(hookGroups(existing, file)), hookGroups(existing, file)) ? 'added' : 'updated') : 'created', entry: { command } };
}

export function disconnectHooks(folder: string): ConnectResult {
  const file = path.join(folder, '.claude', 'settings.json');
  const config = readConfig(file);
  if (!config || config.hooks === undefined) return { file, change: 'absent' };
  const before = hookGroups(config, file);
  const groups = withoutOurs(before);
  if (same(groups, before)) return { file, change: 'absent' };
  const { hooks: _drop, ...rest } = config;
  const next = Object.keys(groups).length ? { ...rest, hooks: groups } : rest;
  if (!Object.keys(next).length) {
    fs.rmSync(file);
    return { file, change: 'deleted-file' };
  }
  write(file, next);
  return { file, change: 'removed' };
}
