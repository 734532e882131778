// The extension starts in a real VS Code: it activates, hands out its API, registers every command it
// contributes, and opens its log. Activation time is printed, never asserted (timing is not pass/fail).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { EngramApi, EngramTestAccess } from '../../src/vscode/api';
import type { Fact } from '../../src/core/types';
import { newId } from '../../src/core/ids';
import { testAccess } from './testAccess';
import { waitFor } from './waitFor';

export const EXTENSION_ID = 'engram-dev.engram';
/** Content of the memory phase 1 writes and phase 2 (after a restart) must still find. */
export const RESTART_MARKER = 'engram-harness: this fact was written before the restart';

async function activated(): Promise<{ ext: vscode.Extension<EngramApi>; api: EngramApi; t: EngramTestAccess }> {
  const ext = vscode.extensions.getExtension<EngramApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in the extension host`);
  const api = await ext.activate();
  return { ext, api, t: testAccess(api) };
}

/** Log files the extension host wrote for this extension (LogOutputChannel files live beside logUri). */
function logFiles(context: vscode.ExtensionContext): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    let names: string[] = [];
    try { names = fs.readdirSync(dir); } catch { return; }
    for (const n of names) {
      const p = path.join(dir, n);
      let st: fs.Stats;
      try { st = fs.statSync(p); } catch { continue; }
      if (st.isDirectory() && depth > 0) walk(p, depth - 1);
      else if (st.isFile() && /engram/i.test(p) && p.endsWith('.log')) found.push(p);
    }
  };
  // logUri = <exthost logs>/engram-dev.engram; search its parent too.
  walk(path.dirname(context.logUri.fsPath), 2);
  return found;
}

suite('Activation', () => {
  test('activates and returns the narrow EngramApi, with the test access outside Production mode', async () => {
    const { ext, api, t } = await activated();
    assert.strictEqual(ext.isActive, true);
    assert.ok(api && typeof api === 'object', 'activate() returned nothing');
    // Other extensions get recall and the change event; the container itself is not handed out.
    assert.deepStrictEqual(Object.keys(api).sort(), ['onDidChangeMemories', 'recall', 'testing']);
    assert.strictEqual(typeof api.recall, 'function');
    assert.strictEqual(typeof api.onDidChangeMemories, 'function');
    assert.ok(t.services, 'test access without services');
    assert.strictEqual(typeof t.services.store, 'function');
    assert.strictEqual(typeof t.services.recall, 'function');
    assert.ok(t.services.storeDir.length > 0, 'no store folder');
  });

  test('registers every command it contributes', async () => {
    const { ext } = await activated();
    const contributed = (ext.packageJSON.contributes?.commands ?? []) as { command: string }[];
    assert.ok(contributed.length > 0, 'package.json contributes no commands');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.map(c => c.command).filter(c => !registered.has(c));
    assert.deepStrictEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  test('has an "Engram" log channel that records activation', async () => {
    const { t } = await activated();
    assert.strictEqual(t.services.logChannel.name, 'Engram');
    // The channel's file shows it really exists in this window; its "activated in X ms" line is printed.
    const line = await waitFor('an "activated in … ms" line in the Engram log', () => {
      for (const f of logFiles(t.services.context)) {
        const m = /activated in ([\d.]+) ms/.exec(fs.readFileSync(f, 'utf8'));
        if (m) return m[0];
      }
      return undefined;
    }, 20_000);
    console.log(`    activation main-thread time: ${line}`);
  });

  test('writes a memory that phase 2 reads after a restart', async () => {
    const { api, t } = await activated();
    const store = await t.services.store();
    const now = Date.now();
    const fact: Fact = {
      id: newId('f'), kind: 'fact', owner: { scope: 'workspace', workspace: t.services.workspaceId },
      createdAt: now, updatedAt: now, accessCount: 0, importance: 0.5, source: 'manual', tags: ['harness'],
      scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation', content: RESTART_MARKER, type: 'fact',
    };
    const saved = await store.record(fact);
    assert.ok(store.get(saved.id), 'the recorded fact is not readable back');
    // The public API recalls it as every surface does.
    const recalled = await api.recall({ text: RESTART_MARKER });
    assert.ok(recalled.some(r => r.memory.id === saved.id), `EngramApi.recall did not find the fact: ${recalled.map(r => r.memory.id).join(', ')}`);
    console.log(`    store folder: ${t.services.storeDir}`);
  });
});

suite('Host', () => {
  // Capture tests rely on VS Code's built-in TypeScript reporting real errors offline; this shows
  // whether that holds in this host (code-server bundles the TypeScript server with its extensions).
  test('built-in TypeScript reports a type error in the fixture workspace', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'no workspace folder open');
    const uri = vscode.Uri.joinPath(folder.uri, 'src', 'hostProbe.ts');
    await vscode.workspace.fs.writeFile(uri, Buffer.from("export const port: number = 'eight thousand';\n"));
    try {
      const started = Date.now();
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const ts = await waitFor('a TypeScript diagnostic', () => vscode.languages.getDiagnostics(uri).find(d => d.source === 'ts'), 90_000);
      const code = typeof ts.code === 'object' ? ts.code.value : ts.code;
      assert.strictEqual(String(code), '2322');
      console.log(`    TypeScript diagnostic after ${Date.now() - started} ms: TS${code} ${ts.message}`);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.workspace.fs.delete(uri);
    }
  });
});
