// `engram connect <client>` / `engram disconnect <client>`: writes (or removes) the "engram" entry of a
// client's MCP configuration. Connect sets only the keys Engram owns in that entry (command, args, and
// VS Code's type) and keeps every other key the user added (env, cwd, startup_timeout_sec, enabled, …);
// edits are made in place (configFile.ts, tomlTable.ts), so disconnect after connect gives the file back
// byte for byte; writes go through symlinks; a file that is not valid JSON/TOML (duplicate keys or tables
// included) is refused untouched. Shapes, from
// each client's documentation:
//   Claude Code  .mcp.json  or (user) ~/.claude.json      { "mcpServers": { name: { command, args, env? } } }
//   Cursor       .cursor/mcp.json or (user) ~/.cursor/mcp.json   same shape ("${workspaceFolder}" expanded)
//   VS Code      .vscode/mcp.json   { "servers": { name: { type: "stdio", command, args } }, "inputs"?: [] }
//   Codex CLI    (user) $CODEX_HOME/config.toml, default ~/.codex/config.toml:
//                [mcp_servers.<name>] command = "…" args = […] (env = {…}, cwd = "…" optional)
// With --server URL (a team's `engram serve`), the entry is the server's MCP endpoint over Streamable HTTP
// instead, the token never written: each client's own way of reading it from elsewhere —
//   Claude Code  { "type": "http", "url": "<URL>/mcp", "headers": { "Authorization": "Bearer ${ENGRAM_TOKEN}" } }
//   Cursor       { "url": "<URL>/mcp", "headers": { "Authorization": "Bearer ${env:ENGRAM_TOKEN}" } }
//   VS Code      { "type": "http", "url": "<URL>/mcp", "headers": { "Authorization": "Bearer ${input:engram-token}" } }
//                and a promptString input (password) that VS Code asks for once and keeps in its secret storage
//   Codex CLI    [mcp_servers.engram] url = "<URL>/mcp" bearer_token_env_var = "ENGRAM_TOKEN"
// Switching between the two kinds removes the other kind's keys of ours (command/args, or type/url and
// the Authorization header); the user's keys stay.
// Codex also reads a project's .codex/config.toml, but only once the project is trusted, and says nothing
// when it is not; the user file is what `codex mcp add` writes and always works, so Codex gets that one.
// User-level entries name no folder: the client starts the server in the project it works in, and the
// server finds that folder's store from its working directory.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { appendJson, editJson, parseJsonObject, readText, removeJsonItem, writeConfigText } from './configFile';
import { removeTable, setTable, type TomlValue } from './tomlTable';

export const CLIENTS = ['claude-code', 'codex', 'cursor', 'vscode'] as const;
export type ClientName = typeof CLIENTS[number];
export const SERVER_NAME = 'engram';

export interface ConnectOptions {
  /** Write the user-level file instead of the project's (clients that have both). */
  user?: boolean;
  home?: string;
  env?: NodeJS.ProcessEnv;
  /** A team server (engram serve): the entry is its MCP endpoint over HTTP, with the token read from elsewhere. */
  server?: string;
}

type Target =
  | { format: 'json'; file: string; key: 'mcpServers' | 'servers'; entry: Record<string, unknown>; user: boolean }
  | { format: 'toml'; file: string; table: string[]; entry: Record<string, TomlValue>; user: true };

/** The variable the token is read from (Claude Code, Cursor, Codex) and VS Code's input id for it. */
export const TOKEN_ENV = 'ENGRAM_TOKEN';
export const TOKEN_INPUT = 'engram-token';
/** Every key of the entry Engram decides, of either kind; `headers` means its Authorization only. */
const OURS = ['type', 'command', 'args', 'url', 'headers', 'bearer_token_env_var'];

/** The team server's MCP endpoint: <URL>/mcp, however the URL was given. */
export function mcpUrl(server: string): string {
  let u: URL;
  try { u = new URL(server); } catch { throw new Error(`--server needs a URL (http://host:port), not "${server}"`); }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`--server must be an http(s):// URL, not ${u.protocol}`);
  if (u.username || u.password || u.search) throw new Error('--server takes the bare URL: the token goes in ENGRAM_TOKEN, never in the URL');
  const base = u.toString().replace(/\/+$/, '');
  return /\/mcp$/.test(base) ? base : `${base}/mcp`;
}

/** Which file, which key, which entry: the one place each client's shape is decided. */
function target(client: ClientName, folder: string, cli: string, o: ConnectOptions): Target {
  const t = stdioTarget(client, folder, cli, o);
  if (!o.server) return t;
  const url = mcpUrl(o.server);
  switch (client) {
    case 'claude-code': return { ...t, entry: { type: 'http', url, headers: { Authorization: `Bearer \${${TOKEN_ENV}}` } } } as Target;
    case 'cursor': return { ...t, entry: { url, headers: { Authorization: `Bearer \${env:${TOKEN_ENV}}` } } } as Target;
    case 'vscode': return { ...t, entry: { type: 'http', url, headers: { Authorization: `Bearer \${input:${TOKEN_INPUT}}` } } } as Target;
    case 'codex': return { ...t, entry: { url, bearer_token_env_var: TOKEN_ENV } } as Target;
  }
}

function stdioTarget(client: ClientName, folder: string, cli: string, o: ConnectOptions): Target {
  const home = o.home ?? os.homedir();
  const user = !!o.user;
  const inFolder = ['--folder', '${workspaceFolder}'];
  switch (client) {
    // Claude Code starts project servers in the project folder: the server finds the store from there.
    case 'claude-code': return { format: 'json', key: 'mcpServers', user, file: user ? path.join(home, '.claude.json') : path.join(folder, '.mcp.json'), entry: { command: 'node', args: [cli, 'mcp'] } };
    case 'cursor': return { format: 'json', key: 'mcpServers', user, file: path.join(user ? home : folder, '.cursor', 'mcp.json'), entry: { command: 'node', args: [cli, 'mcp', ...inFolder] } };
    case 'vscode':
      if (user) throw new Error('VS Code needs no user-level entry: the Engram extension gives every agent in VS Code its server. Use "engram connect vscode" for a project file.');
      return { format: 'json', key: 'servers', user, file: path.join(folder, '.vscode', 'mcp.json'), entry: { type: 'stdio', command: 'node', args: [cli, 'mcp', ...inFolder] } };
    case 'codex': {
      const codexHome = (o.env ?? process.env).CODEX_HOME || path.join(home, '.codex');
      return { format: 'toml', user: true, file: path.join(codexHome, 'config.toml'), table: ['mcp_servers', SERVER_NAME], entry: { command: 'node', args: [cli, 'mcp'] } };
    }
  }
}

export function isClient(name: string | undefined): name is ClientName {
  return (CLIENTS as readonly string[]).includes(name ?? '');
}

export interface ConnectResult {
  file: string;
  change: 'created' | 'added' | 'updated' | 'unchanged' | 'removed' | 'deleted-file' | 'absent';
  /** The entry written (connect) or removed (disconnect). */
  entry?: Record<string, unknown>;
  /** The entry as it reads in the file. */
  text?: string;
}

/** The file's text and JSON object, undefined when there is no file; throws a clear error for anything else. */
function readJson(file: string): { text: string; value: Record<string, unknown> } | undefined {
  const text = readText(file);
  return text === undefined ? undefined : { text, value: parseJsonObject(text, file) };
}

function serversOf(config: Record<string, unknown>, key: string, file: string): Record<string, unknown> {
  const s = config[key] ?? {};
  if (typeof s !== 'object' || s === null || Array.isArray(s)) throw new Error(`"${key}" in ${file} is not an object; it was left untouched.`);
  return s as Record<string, unknown>;
}

function same(a: unknown, b: unknown): boolean { return JSON.stringify(a) === JSON.stringify(b); }

/** A file that held nothing but our entry was ours: remove it (and, for a project, its folder when empty). */
function deleteOurs(file: string, folder: string, user: boolean): void {
  fs.rmSync(file); // a symlink goes, its target stays
  if (!user && path.dirname(file) !== folder) { try { fs.rmdirSync(path.dirname(file)); } catch { /* not empty: keep it */ } }
}

export function connect(client: ClientName, folder: string, cli: string, o: ConnectOptions = {}): ConnectResult {
  const t = target(client, folder, cli, o);
  if (t.format === 'toml') return connectToml(t);
  const file = t.file;
  const existing = readJson(file);
  const servers = serversOf(existing?.value ?? {}, t.key, file);
  const before = servers[SERVER_NAME];
  if (before !== undefined && (typeof before !== 'object' || before === null || Array.isArray(before))) {
    throw new Error(`"${t.key}.${SERVER_NAME}" in ${file} is not an object; it was left untouched.`);
  }
  let next = existing?.text ?? '';
  if (before === undefined) {
    // Added at the end of the servers: other servers stay where they were.
    next = editJson(next, [t.key, SERVER_NAME], t.entry);
  } else {
    next = setOurKeys(next, [t.key, SERVER_NAME], before as Record<string, unknown>, t.entry);
  }
  if (client === 'vscode') next = o.server ? withTokenInput(next) : withoutTokenInput(next);
  const entry = serversOf(parseJsonObject(next, file), t.key, file)[SERVER_NAME] as Record<string, unknown>;
  const text = `"${SERVER_NAME}": ${JSON.stringify(entry)}`;
  if (existing && next === existing.text) return { file, change: 'unchanged', entry, text };
  // A new file ends with a line break; an existing one keeps whatever it had.
  if (!existing) next = next.endsWith('\n') ? next : next + '\n';
  writeConfigText(file, next);
  return { file, change: !existing ? 'created' : before === undefined ? 'added' : 'updated', entry, text };
}

/**
 * Only the keys Engram decides (command, args, VS Code's type; or type, url and the Authorization header),
 * each in place; the other kind's keys of ours go; every other key, and every other header, is the user's.
 */
function setOurKeys(text: string, at: string[], before: Record<string, unknown>, entry: Record<string, unknown>): string {
  let next = text;
  const headers = before.headers;
  const userHeaders = typeof headers === 'object' && headers !== null && !Array.isArray(headers) ? headers as Record<string, unknown> : undefined;
  for (const k of OURS) {
    if (k in entry || !(k in before)) continue;
    // A type the user chose stays ("stdio" on Claude Code); ours, "http", goes with the URL.
    if (k === 'type' && before.type !== 'http') continue;
    if (k === 'headers' && userHeaders) {
      if (!('Authorization' in userHeaders)) continue;
      const others = Object.keys(userHeaders).filter(h => h !== 'Authorization');
      next = editJson(next, others.length ? [...at, 'headers', 'Authorization'] : [...at, 'headers'], undefined);
      continue;
    }
    next = editJson(next, [...at, k], undefined);
  }
  for (const [k, v] of Object.entries(entry)) {
    if (JSON.stringify(before[k]) === JSON.stringify(v)) continue;
    if (k === 'headers' && userHeaders) {
      for (const [h, hv] of Object.entries(v as Record<string, unknown>)) if (userHeaders[h] !== hv) next = editJson(next, [...at, 'headers', h], hv);
      continue;
    }
    next = editJson(next, [...at, k], v);
  }
  return next;
}

/** VS Code's input the Authorization header names: asked once, kept in VS Code's secret storage. */
const TOKEN_INPUT_ENTRY = { type: 'promptString', id: TOKEN_INPUT, description: 'Engram team server token (engram serve token create)', password: true };

function inputsOf(text: string): unknown[] | undefined {
  const v = text.trim() ? (JSON.parse(text) as Record<string, unknown>).inputs : undefined;
  return Array.isArray(v) ? v : undefined;
}

function withTokenInput(text: string): string {
  const inputs = inputsOf(text);
  if (inputs?.some(i => (i as { id?: unknown })?.id === TOKEN_INPUT)) return text;
  return inputs ? appendJson(text, ['inputs'], TOKEN_INPUT_ENTRY) : editJson(text, ['inputs'], [TOKEN_INPUT_ENTRY]);
}

/** Our input goes (and the list, when nothing else is in it: connect added it). */
function withoutTokenInput(text: string): string {
  const inputs = inputsOf(text);
  const at = inputs?.findIndex(i => (i as { id?: unknown })?.id === TOKEN_INPUT) ?? -1;
  if (!inputs || at < 0) return text;
  return inputs.length === 1 ? editJson(text, ['inputs'], undefined) : removeJsonItem(text, ['inputs'], at);
}

export function disconnect(client: ClientName, folder: string, o: ConnectOptions = {}): ConnectResult {
  const t = target(client, folder, '', o);
  if (t.format === 'toml') return disconnectToml(t, folder);
  const file = t.file;
  const existing = readJson(file);
  if (!existing) return { file, change: 'absent' };
  const config = existing.value;
  const servers = serversOf(config, t.key, file);
  if (!(SERVER_NAME in servers)) return { file, change: 'absent' };
  const { [SERVER_NAME]: removed, ...rest } = servers;
  const hadInput = client === 'vscode' && withoutTokenInput(existing.text) !== existing.text;
  const others = Object.keys(config).filter(k => k !== t.key && !(hadInput && k === 'inputs' && inputsOf(existing.text)!.length === 1));
  if (!Object.keys(rest).length && !others.length && !fs.lstatSync(file).isSymbolicLink()) {
    deleteOurs(file, folder, t.user);
    return { file, change: 'deleted-file', entry: removed as Record<string, unknown> };
  }
  // Our entry goes, and the servers object with it when nothing else is in it (connect added it).
  let next = editJson(existing.text, Object.keys(rest).length ? [t.key, SERVER_NAME] : [t.key], undefined);
  if (client === 'vscode') next = withoutTokenInput(next);
  writeConfigText(file, next);
  return { file, change: 'removed', entry: removed as Record<string, unknown> };
}

type TomlTarget = Extract<Target, { format: 'toml' }>;

function connectToml(t: TomlTarget): ConnectResult {
  const before = readText(t.file);
  const r = setTable(before ?? '', t.table, t.entry, OURS);
  if ('error' in r) throw new Error(`${t.file}: ${r.error}; it was left untouched. Add the entry by hand.`);
  if (r.change === 'unchanged') return { file: t.file, change: 'unchanged', entry: t.entry, text: r.table };
  writeConfigText(t.file, r.text);
  return { file: t.file, change: before === undefined ? 'created' : r.change === 'added' ? 'added' : 'updated', entry: t.entry, text: r.table };
}

function disconnectToml(t: TomlTarget, folder: string): ConnectResult {
  const before = readText(t.file);
  if (before === undefined) return { file: t.file, change: 'absent' };
  const r = removeTable(before, t.table);
  if ('error' in r) throw new Error(`${t.file}: ${r.error}; it was left untouched.`);
  if (r.change === 'absent') return { file: t.file, change: 'absent' };
  if (!r.text.trim() && !fs.lstatSync(t.file).isSymbolicLink()) { deleteOurs(t.file, folder, true); return { file: t.file, change: 'deleted-file' }; }
  writeConfigText(t.file, r.text);
  return { file: t.file, change: 'removed' };
}

export function describeChange(client: ClientName, r: ConnectResult): string {
  const entry = r.text ? `\n  ${r.text.split('\n').join('\n  ')}` : '';
  switch (r.change) {
    case 'created': return `${client}: created ${r.file} with${entry}\n`;
    case 'added': return `${client}: added to ${r.file} (everything else kept)${entry}\n`;
    case 'updated': return `${client}: updated the "${SERVER_NAME}" entry in ${r.file}${entry}\n`;
    case 'unchanged': return `${client}: ${r.file} already has this entry; nothing changed\n`;
    case 'removed': return `${client}: removed "${SERVER_NAME}" from ${r.file} (everything else kept)\n`;
    case 'deleted-file': return `${client}: deleted ${r.file} (it held only the "${SERVER_NAME}" entry)\n`;
    case 'absent': return `${client}: no "${SERVER_NAME}" entry in ${r.file}; nothing changed\n`;
  }
}

// Claude Code hooks (.claude/settings.json), installed only when asked (`engram connect claude-code --hooks`):
//   { "hooks": { "<Event>": [ { "matcher": "…", "hooks": [ { "type": "command", "command": "…" } ] } ] } }
// PreToolUse keeps a file's text before Write/Edit/MultiEdit changes it (a Write over a file is diffed
// against it); Stop stores what the session did so far, SessionEnd the rest.
const HOOK_EVENTS: { event: string; matcher?: string }[] = [
  { event: 'PreToolUse', matcher: 'Edit|MultiEdit|Write' },
  { event: 'PostToolUse', matcher: 'Bash|Edit|MultiEdit|Write' },
  { event: 'PostToolUseFailure', matcher: 'Bash' },
  { event: 'Stop' },
  { event: 'SessionEnd' },
];

/** Ours: the command runs this CLI's `hook claude-code`, or the hook's own bundle (`hook.js claude-code`). */
const isOurHook = (h: unknown) => {
  const c = (h as { command?: unknown })?.command;
  return typeof c === 'string' && (/ hook claude-code$/.test(c) && /engram|cli\.js/.test(c) || /hook\.js"? claude-code$/.test(c));
};

/** The hook's command: dist/hook.js beside the CLI when it is there (a fraction of the CLI's start-up cost). */
function hookCommand(cli: string): string {
  const hook = path.join(path.dirname(cli), 'hook.js');
  return fs.existsSync(hook) ? `node ${JSON.stringify(hook)} claude-code` : `node ${JSON.stringify(cli)} hook claude-code`;
}

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

/** Claude Code's settings rewritten whole (two-space JSON, as Claude Code writes it), through a symlink. */
function write(file: string, config: Record<string, unknown>): void {
  writeConfigText(file, JSON.stringify(config, null, 2) + '\n');
}

export function connectHooks(folder: string, cli: string): ConnectResult {
  const file = path.join(folder, '.claude', 'settings.json');
  const existing = readJson(file)?.value;
  const config = existing ?? {};
  const groups = withoutOurs(hookGroups(config, file));
  const command = hookCommand(cli);
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
  const config = readJson(file)?.value;
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
