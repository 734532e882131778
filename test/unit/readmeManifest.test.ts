// The README says what the manifest says: every command it names is one the palette shows under that
// title (package.nls.json), its command list is the palette's, and its settings table has every setting
// with its default from package.json. Issue 21 found "Show Memory Panel" and "Clear Workspace Memory",
// which the palette calls "Show Memories" and "Forget All Memories of This Workspace".
import * as assert from 'assert';
import { readFileSync } from 'fs';
import { join } from 'path';

const root = process.cwd();
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  engines: { node: string };
  contributes: {
    commands: { command: string; title: string }[];
    menus: { commandPalette: { command: string; when?: string }[] };
    keybindings: { command: string; key: string }[];
    configuration: { properties: Record<string, { default: unknown }> };
  };
};
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

/** Titles as the palette shows them ("%engram.command.x%" looked up in package.nls.json). */
function titles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of pkg.contributes.commands) {
    const m = /^%(.+)%$/.exec(c.title);
    const title = m ? nls[m[1]] : c.title;
    assert.ok(title, `${c.command}: no title in package.nls.json for ${c.title}`);
    out.set(c.command, title);
  }
  return out;
}
const flat = (s: string) => s.replace(/\s+/g, ' ');

describe('README against the manifest', () => {
  it('every *Engram: X* the README names is a command title', () => {
    const known = new Set(titles().values());
    const named = [...flat(readme).matchAll(/\*Engram: ([^*]+)\*/g)].map(m => m[1]);
    assert.ok(named.length >= 5, `only ${named.length} commands named as *Engram: X*`);
    assert.deepStrictEqual(named.filter(n => !known.has(n)), [], 'named in the README, not in the palette');
  });

  it('its command list is exactly the palette (commands hidden from it aside), with the keybindings', () => {
    const text = flat(readme);
    const intro = 'All commands are under **Engram:** in the command palette:';
    const start = text.indexOf(intro);
    assert.ok(start >= 0, 'the README has no command list');
    const para = text.slice(start + intro.length, text.indexOf('. Long work', start));
    const listed = [...para.matchAll(/\*([^*]+)\*/g)].map(m => m[1]);
    const hidden = new Set(pkg.contributes.menus.commandPalette.filter(m => m.when === 'false').map(m => m.command));
    const t = titles();
    const palette = pkg.contributes.commands.filter(c => !hidden.has(c.command)).map(c => t.get(c.command)!);
    assert.deepStrictEqual([...listed].sort(), [...palette].sort());
    for (const kb of pkg.contributes.keybindings) {
      const key = kb.key.split('+').map(k => k.length === 1 ? k.toUpperCase() : k[0].toUpperCase() + k.slice(1)).join('+');
      assert.ok(para.includes(`*${t.get(kb.command)}* (\`${key}\`)`), `${t.get(kb.command)} (${key}) missing from the list`);
    }
  });

  it('its settings table has every setting with the default package.json gives it', () => {
    const rows = new Map<string, string>();
    for (const line of readme.split('\n')) {
      const m = /^\| (`engram\.[^|]+) \| ([^|]+) \|/.exec(line);
      if (!m) continue;
      // "`engram.capture.diagnostics` / `.terminal`": later keys replace the first one's last part.
      const keys = m[1].split(' / ').map(k => k.replace(/`/g, '').trim());
      const full = keys.map(k => (k.startsWith('.') ? keys[0].replace(/\.[^.]+$/, k) : k));
      const defaults = m[2].trim().split(' / ');
      full.forEach((k, i) => rows.set(k, (defaults.length === full.length ? defaults[i] : m[2]).trim()));
    }
    const shown = (v: unknown): string => Array.isArray(v) ? v.map(x => `\`${String(x)}\``).join(', ') : v === '' ? '`""`' : `\`${String(v)}\``;
    const props = pkg.contributes.configuration.properties;
    assert.deepStrictEqual(Object.keys(props).filter(k => !rows.has(k)), [], 'settings missing from the README table');
    assert.deepStrictEqual([...rows.keys()].filter(k => !(k in props)), [], 'README settings that package.json does not have');
    for (const [k, p] of Object.entries(props)) assert.strictEqual(rows.get(k), shown(p.default), `${k}: the README's default`);
  });

  it('says the Node version engines.node says, and the CHANGELOG has a section for this version', () => {
    const min = /^>=(\d+(?:\.\d+)*)$/.exec(pkg.engines.node)?.[1];
    assert.ok(min, `engines.node ${pkg.engines.node} is not a plain minimum`);
    assert.ok(readme.includes(`Node.js ${min}+`), `the README does not say Node.js ${min}+`);
    const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
    assert.match(changelog, new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\]`, 'm'), `no "## [${pkg.version}]" in CHANGELOG.md`);
  });
});
