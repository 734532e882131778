// A user at the keyboard of the real workbench: typing at human speed (200–400 ms per key, with pauses),
// the integrated terminal, the editor, saving, and event-driven waits on what Engram stored (the CLI
// reads the window's store) and logged. Used by the real-host e2e files and
// scripts/dev/record-live-traces.mjs, so the tests and the recorded traces type the same way.
//
// Waits poll for a state with a generous deadline and fail with what was seen; none passes because time
// went by. Keystroke timings are kept (host.keys) so a run can report how fast it really typed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { repoRoot } from '../../../scripts/host/lib.mjs';
import { escape, runCommand, terminalStatusFile } from './host.mjs';

/** Settings a typing user needs in this harness: a terminal whose text the DOM shows, suggestions that
 *  never replace what was typed (a commit character accepting a completion would change the text). */
export const userSettings = {
  'terminal.integrated.gpuAcceleration': 'off',
  'terminal.integrated.enablePersistentSessions': false,
  'terminal.integrated.defaultProfile.linux': 'bash',
  'editor.acceptSuggestionOnCommitCharacter': false,
  'editor.acceptSuggestionOnEnter': 'off',
  'editor.autoClosingBrackets': 'never',
  'editor.autoClosingQuotes': 'never',
  'editor.autoSurround': 'never',
  'editor.formatOnType': false,
  'editor.autoIndent': 'none',
  'files.autoSave': 'off',
  'typescript.disableAutomaticTypeAcquisition': true,
};

/** Deterministic per seed, so a rerun types with the same rhythm. */
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 2 ** 32; };
}

/**
 * Keystroke statistics of a run: every interval between two keys typed by typeHuman, in ms.
 * `planned` is what the typist waited; `actual` the wall time between the keys (the browser's own
 * dispatch adds to it on a loaded machine).
 */
export class KeyLog {
  constructor() { this.planned = []; this.actual = []; this.pauses = 0; }
  summary() {
    const s = a => {
      if (!a.length) return { n: 0 };
      const v = [...a].sort((x, y) => x - y);
      const q = p => v[Math.min(v.length - 1, Math.floor(p * v.length))];
      return { n: v.length, min: v[0], p50: q(0.5), p95: q(0.95), max: v[v.length - 1], mean: Math.round(v.reduce((x, y) => x + y, 0) / v.length) };
    };
    return { planned: s(this.planned), actual: s(this.actual), pauses: this.pauses };
  }
}

/**
 * Types `text` one key at a time, 200–400 ms apart, with a longer pause (0.8–2 s) every 5–12 keys and
 * after a space now and then, as a person does. `\n` is Enter. `onKey(ch)` runs after each key, inside
 * the wait (a test looks at the editor while it is being typed). Returns when the last key is typed.
 */
export async function typeHuman(page, text, { keys = new KeyLog(), seed = 17, min = 200, max = 400, onKey } = {}) {
  const r = rng(seed + text.length);
  let sincePause = 0, nextPause = 5 + Math.floor(r() * 8);
  let last;
  for (const ch of text) {
    const now = Date.now();
    if (last !== undefined) keys.actual.push(now - last);
    last = now;
    if (ch === '\n') await page.keyboard.press('Enter');
    else await page.keyboard.type(ch);
    let wait = min + Math.floor(r() * (max - min + 1));
    keys.planned.push(wait);
    if (++sincePause >= nextPause || (ch === ' ' && r() < 0.2)) {
      wait += 800 + Math.floor(r() * 1200);
      keys.pauses++;
      sincePause = 0; nextPause = 5 + Math.floor(r() * 8);
    }
    const t = Date.now();
    if (onKey) await onKey(ch);
    await page.waitForTimeout(Math.max(0, wait - (Date.now() - t)));
  }
  return keys;
}

/** Polls `probe` until it returns a truthy value; throws with `what` and the last value seen. */
export async function waitFor(what, probe, { timeout = 240_000, interval = 1000 } = {}) {
  const until = Date.now() + timeout;
  let last;
  for (;;) {
    try { last = await probe(); } catch (e) { last = e; }
    if (last && !(last instanceof Error)) return last;
    if (Date.now() > until) throw new Error(`timed out after ${timeout} ms waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)?.slice(0, 2000)}`);
    await new Promise(res => setTimeout(res, interval));
  }
}

// ---- what Engram stored and logged ----

/** Every memory in the store (the CLI's export: JSON lines), read as the window left it. */
export function memories(storeDir) {
  let out;
  try {
    out = execFileSync(process.execPath, [path.join(repoRoot, 'dist/cli.js'), '--store', storeDir, 'export'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch { return []; }
  return out.split('\n').filter(Boolean).map(l => JSON.parse(l));
}

/** A memory with its history (outcomes), as `engram show ID --json` prints it. */
export function showMemory(storeDir, id) {
  const out = execFileSync(process.execPath, [path.join(repoRoot, 'dist/cli.js'), '--store', storeDir, 'show', id, '--json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return JSON.parse(out);
}

/** The lessons in the store, optionally only those whose text matches `re`. */
export function lessons(storeDir, re) {
  return memories(storeDir).filter(m => m.kind === 'lesson' && (!re || re.test(lessonText(m))));
}

/** A lesson's error text as the export carries it: the store's `errorText` is exported as `errorSignature`
 *  (the import format's name), so `m.errorText` is always undefined here. */
export function errorOf(m) {
  return m.errorSignature ?? m.errorText ?? '';
}

/**
 * Is `m` about an error matching `re`? The error text, and the signature key and tags, which carry the
 * tool's code: a lesson's error text is the message alone ("Type 'string' is not assignable …"), its
 * code (TS2322) is in `signatureKey` ("tsc:TS2322:…") and the tags.
 */
export function aboutError(m, re) {
  return re.test([errorOf(m), m.signatureKey ?? '', ...(m.tags ?? [])].join('\n'));
}

/** Everything a lesson says, for assertions: cause, fix, scope, files, steps. */
export function lessonText(m) {
  return JSON.stringify(m);
}

/** The Engram log channel's files under the run folder (the window's logs live in its user data). */
export function engramLog(runDir) {
  const out = [];
  const walk = (d, depth) => {
    let names = [];
    try { names = fs.readdirSync(d); } catch { return; }
    for (const n of names) {
      const p = path.join(d, n);
      let st;
      try { st = fs.statSync(p); } catch { continue; }
      if (st.isDirectory() && depth > 0) walk(p, depth - 1);
      else if (st.isFile() && /engram/i.test(n) && n.endsWith('.log')) { try { out.push(fs.readFileSync(p, 'utf8')); } catch { /* rotated */ } }
    }
  };
  walk(path.join(runDir, 'user-data', 'logs'), 6);
  return out.join('\n');
}

/** Waits for a line of the Engram log matching `re` (counting from `after` matches already seen). */
export async function waitForLog(runDir, re, { after = 0, timeout = 240_000 } = {}) {
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
  return waitFor(`the Engram log to say ${re}`, () => {
    const hits = [...engramLog(runDir).matchAll(g)];
    return hits.length > after ? hits[hits.length - 1][0] : undefined;
  }, { timeout });
}

/** How many Engram log lines match `re` right now. */
export function logCount(runDir, re) {
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
  return [...engramLog(runDir).matchAll(g)].length;
}

// ---- the terminal ----

/** Opens a new integrated terminal and waits until its shell has printed a prompt. */
export async function openTerminal(page, { timeout = 120_000 } = {}) {
  // View: Toggle Terminal (Ctrl+`) opens the panel with a terminal; the terminal's own commands may not
  // be in the palette yet while the workbench is still starting.
  const rows = page.locator('.terminal-wrapper.active .xterm-rows');
  await waitFor('the terminal panel', async () => {
    if (await rows.first().isVisible().catch(() => false)) return true;
    await runCommand(page, 'View: Toggle Terminal').catch(() => {});
    return rows.first().waitFor({ state: 'visible', timeout: 15_000 }).then(() => true, () => false);
  }, { timeout });
  await waitFor('a shell prompt in the terminal', async () => /[$#]\s*$/m.test(await terminalText(page)), { timeout });
  // The prompt marker shell integration draws (a hollow circle): until it is there the shell may still be
  // starting, and keys typed now are lost when it comes up (measured: up to 18 s after the prompt at load 18).
  await waitFor('shell integration in the terminal', () => page.evaluate(() => !!document.querySelector('.terminal-wrapper.active .terminal-command-decoration')), { timeout, interval: 500 });
  // The prompt hook has run once: the shell is reading keys (host.mjs, terminalStatusEnv).
  await waitFor('the first prompt in the terminal status file', () => finishedCommands(page).length > 0, { timeout, interval: 500 });
  await page.locator('.terminal-wrapper.active .xterm').first().click();
}

/** The visible text of the active terminal (the DOM renderer's rows). */
export async function terminalText(page) {
  return page.locator('.terminal-wrapper.active .xterm-rows').first().innerText().catch(() => '');
}

/**
 * The commands the window's terminals finished, oldest first: `{ status, command }` from the status file
 * the harness's PROMPT_COMMAND appends to (host.mjs, terminalStatusEnv), one line per prompt. Unlike the
 * shell-integration decorations in the DOM (only the visible rows exist there) it keeps every command,
 * however far the terminal has scrolled.
 */
export function finishedCommands(page) {
  const file = terminalStatusFile(page);
  if (!file) throw new Error('this page was not opened by startHost: no terminal status file');
  let text = '';
  try { text = fs.readFileSync(file, 'utf8'); } catch { /* no prompt yet */ }
  return text.split('\n').filter(Boolean).map(line => {
    const tab = line.indexOf('\t');
    // `history 1` prints "  12  npm run build" (a `*` after the number when the entry was edited).
    return { status: Number(line.slice(0, tab)), command: line.slice(tab + 1).replace(/^\s*\d+\*?\s+/, '') };
  });
}

/**
 * Focuses the terminal, types `command` at human speed, presses Enter and waits until the shell has run
 * it: a new line in the terminal status file names that command, and the prompt is back on screen.
 * Returns 'success' (exit status 0) or 'error'.
 */
export async function runInTerminal(page, command, { keys, seed, timeout = 300_000 } = {}) {
  await escape(page);
  await focusTerminal(page);
  const before = finishedCommands(page).length;
  await typeHuman(page, command, { keys, seed });
  // A user sees the line before pressing Enter; keys lost to a focus change (a notification, a view
  // revealing itself) are typed again on a clean line.
  const shown = () => terminalText(page).then(t => t.trimEnd().split('\n').pop()?.endsWith(command));
  if (!(await waitFor(`\`${command}\` on the prompt line`, shown, { timeout: 10_000, interval: 500 }).catch(() => false))) {
    await focusTerminal(page);
    await page.keyboard.press('Control+U');
    await typeHuman(page, command, { keys, seed });
    await waitFor(`\`${command}\` on the prompt line (typed again)`, shown, { timeout: 15_000, interval: 500 }).catch(async e => { throw new Error(`${e.message}\nterminal:\n${await terminalText(page)}`); });
  }
  await page.keyboard.press('Enter');
  const fail = async e => { throw new Error(`${e.message}\nstatus file: ${JSON.stringify(finishedCommands(page).slice(before))}\nterminal:\n${await terminalText(page)}`); };
  const done = await waitFor(`\`${command}\` to finish in the terminal`, () => finishedCommands(page).slice(before).find(c => c.command.trim() === command.trim()),
    { timeout, interval: 500 }).catch(fail);
  // The hook runs just before the prompt is drawn: wait for it, so the next keys land on a fresh prompt.
  await waitFor('the prompt back in the terminal', async () => /[$#]\s*$/.test((await terminalText(page)).trimEnd()), { timeout: 30_000, interval: 250 }).catch(fail);
  return done.status === 0 ? 'success' : 'error';
}

/** Focuses the active terminal (the panel's terminal view). */
export async function focusTerminal(page) {
  const term = page.locator('.terminal-wrapper.active .xterm').first();
  if (await term.isVisible().catch(() => false)) { await term.click(); return; }
  await page.keyboard.press('Control+Backquote');
  await term.waitFor({ state: 'visible', timeout: 30_000 });
  await term.click();
}

// ---- the editor ----

/** Opens a workspace file through Quick Open (Ctrl+P), as a user does, and waits for its editor. */
export async function openFile(page, rel, { timeout = 60_000 } = {}) {
  await escape(page);
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout });
  await input.fill(rel);
  const base = path.basename(rel);
  const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: base }).first();
  await row.waitFor({ state: 'visible', timeout });
  await page.keyboard.press('Enter');
  await page.locator(`.tabs-container .tab.active[aria-label*="${base}"], .tabs-container .tab.active[title*="${base}"]`).first().waitFor({ timeout }).catch(() => {});
  await page.locator('.editor-instance .monaco-editor').first().waitFor({ timeout });
}

/** Puts the cursor at line:col (1-based) with Go to Line. */
export async function goTo(page, line, col = 1) {
  await escape(page);
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 15_000 });
  await input.fill(`:${line}:${col}`);
  await page.keyboard.press('Enter');
}

/**
 * Replaces line `line` of the active editor by typing `text` at human speed: the cursor goes to the
 * line, Home / Shift+End select what is there after the indentation, and the new text is typed over it.
 */
export async function retypeLine(page, line, text, { keys, seed, onKey } = {}) {
  await goTo(page, line, 1);
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home'); // smart Home: the selection stops at the indentation
  await page.waitForTimeout(300);
  await typeHuman(page, text, { keys, seed, onKey });
}

/** Saves the active editor (Ctrl+S). */
export async function save(page) {
  await page.keyboard.press('Control+S');
}

/** How many error squiggles the visible editors show. */
export async function errorSquiggles(page) {
  return page.locator('.monaco-editor .squiggly-error').count();
}

/** One line per memory (kind, id, error, outcome, maturity), for a failing test's message. */
export function storeSummary(storeDir) {
  return memories(storeDir).map(m => `${m.kind} ${m.id}${m.maturity ? ` ${m.maturity}` : ''}${m.outcome ? ` ${m.outcome}` : ''}: ${(errorOf(m) || m.trigger || m.title || '').slice(0, 120)}${m.kind === 'lesson' ? ` | fix: ${(m.fixApproach ?? '').slice(0, 160)}` : ''}`).join('\n');
}
