// The hover on a real TypeScript error shows the memory for that error in that scope, never one scoped
// elsewhere, nothing where there is no error, and hostile memory text renders inert.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { renderHover } from '../../src/vscode/hover';
import { engram, hoverTexts, openWithError, seedLesson, token, waitFor } from './surfaceHelpers';

async function hoverAt(uri: vscode.Uri, pos: vscode.Position): Promise<vscode.Hover[]> {
  return (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, pos)) ?? [];
}

/** Engram's hover among all providers' (TypeScript's own hover comes too). */
function engramHover(hovers: vscode.Hover[]): string | undefined {
  return hoverTexts(hovers).find(t => t.includes('engram.markHelpful'));
}

suite('Hover on errors', () => {
  test('shows the in-scope memory for a real TS error and not the one scoped elsewhere', async () => {
    const api = await engram();
    const prop = token('missingProp');
    // TS2339 on a property name unique to this run.
    const web = await openWithError(`packages/web/src/hover_${prop}.ts`, `export const n = 'abc'.${prop};\n`, 2339);
    const errorText = `error TS2339: ${web.diagnostic.message}`;
    const inScope = token('WEBCAUSE');
    const outScope = token('APICAUSE');
    const webLesson = await seedLesson(api, { errorText, rootCause: `${inScope} the web string type has no such field`, fixApproach: 'use the typed accessor from web/model', scope: ['packages/web/**'] });
    await seedLesson(api, { errorText, rootCause: `${outScope} the api payload was not parsed`, fixApproach: 'parse the payload with zod first', scope: ['packages/api/**'] });

    const pos = web.diagnostic.range.start.translate(0, 1);
    const text = await waitFor('the Engram hover', async () => engramHover(await hoverAt(web.uri, pos)));
    assert.ok(text.includes(inScope), `in-scope root cause missing from hover:\n${text}`);
    assert.ok(!text.includes(outScope), 'a memory scoped to packages/api/** appeared in packages/web');
    assert.ok(text.includes(encodeURIComponent(JSON.stringify([webLesson.id]))), 'Helpful/Didn\'t help links do not carry the memory id');
    assert.match(text, /command:engram\.markNotHelpful\?/);
    assert.match(text, /command:engram\.openMemory\?/);
    assert.match(text, /50\\?% /, 'confidence percent missing');

    // What provideHover costs on the main thread once the background recall has run: a cache read and
    // the markdown. Printed, not asserted (timing is not pass/fail).
    const cache = api.diagnostics;
    assert.ok(cache, 'the diagnostic recall cache did not start');
    await cache.resolve(web.uri, web.diagnostic);
    let t = performance.now();
    for (let i = 0; i < 200; i++) assert.ok(cache.cached(web.uri, web.diagnostic));
    const lookup = (performance.now() - t) / 200;
    const cachedResults = cache.cached(web.uri, web.diagnostic) ?? [];
    t = performance.now();
    for (let i = 0; i < 200; i++) renderHover(cachedResults);
    console.log(`    hover main-thread work on a cache hit: lookup ${lookup.toFixed(3)} ms + render ${((performance.now() - t) / 200).toFixed(3)} ms (${cachedResults.length} memories)`);

    // The same error in packages/api shows the api memory instead.
    const api2 = await openWithError(`packages/api/src/hover_${prop}.ts`, `export const n = 'abc'.${prop};\n`, 2339);
    const apiText = await waitFor('the Engram hover in packages/api', async () => engramHover(await hoverAt(api2.uri, api2.diagnostic.range.start.translate(0, 1))));
    assert.ok(apiText.includes(outScope) && !apiText.includes(inScope), `wrong scope in packages/api hover:\n${apiText}`);
  });

  test('shows nothing away from errors or for errors no memory knows', async () => {
    const api = await engram();
    const name = token('nomem');
    // A memory about another error that shares words with this one: the proactive gate must not show it.
    await seedLesson(api, {
      errorText: `error TS2322: Type 'number' is not assignable to type 'string'. The constant ${token('other')} was reassigned.`,
      rootCause: 'a constant was assigned a value of another type', fixApproach: 'declare it with let and the right type', scope: [],
    });
    // TS2588 (assignment to a constant): no test seeds a memory for it.
    const { uri, diagnostic } = await openWithError(`packages/web/src/${name}.ts`, `// line without error\nconst ${name} = 1;\n${name} = 2;\nexport {};\n`, 2588);
    assert.strictEqual(engramHover(await hoverAt(uri, new vscode.Position(0, 3))), undefined, 'hover on a line without error');
    // An error whose signature no memory shares: once the background recall for it has resolved (awaited,
    // not slept on), it holds nothing and the hover shows nothing.
    assert.ok(api.diagnostics, 'the diagnostic recall cache did not start');
    const results = await api.diagnostics.resolve(uri, diagnostic);
    assert.deepStrictEqual((results ?? []).map(r => r.memory.id), [], 'proactive recall found memories for an error none is about');
    assert.strictEqual(engramHover(await hoverAt(uri, diagnostic.range.start.translate(0, 1))), undefined);
  });

  test('hostile memory text renders inert: no HTML, images, foreign links or commands', async () => {
    const api = await engram();
    const name = token('undefinedName');
    const { uri, diagnostic } = await openWithError(`src/hostile_${name}.ts`, `export const v = ${name} + 1;\n`, 2304);
    const marker = token('HOSTILE');
    await seedLesson(api, {
      errorText: `error TS2304: ${diagnostic.message}`,
      rootCause: `${marker} <img src=x onerror=alert(1)> <script>alert(2)</script> [run me](command:workbench.action.terminal.new) ![x](https://evil.example/p.png)`,
      fixApproach: 'see https://evil.example and command:workbench.action.reloadWindow <b>bold</b>',
      scope: ['src/**'],
    });
    const hovers = await waitFor('the hostile hover', async () => {
      const hs = await hoverAt(uri, diagnostic.range.start.translate(0, 1));
      return hs.some(h => hoverTexts([h]).some(t => t.includes(marker))) ? hs : undefined;
    });
    const hover = hovers.find(h => hoverTexts([h]).some(t => t.includes(marker)));
    assert.ok(hover);
    const md = hover.contents.find((c): c is vscode.MarkdownString => typeof c !== 'string' && 'value' in c && c.value.includes(marker));
    assert.ok(md);
    const value = md.value;
    // Markdown treats a backslash-escaped "<" as text: only an unescaped one could start HTML.
    assert.ok(!/(^|[^\\])<(img|script|b)/i.test(value), `raw HTML survived:\n${value}`);
    assert.ok(value.includes('\\<img'), 'the hostile text should still be visible, escaped');
    // Every link target in the markdown is one of Engram's own three commands.
    const targets = [...value.matchAll(/\]\(([^)]*)\)/g)].map(m => m[1]);
    assert.ok(targets.length >= 3, 'feedback links missing');
    for (const t of targets) assert.match(t, /^command:engram\.(markHelpful|markNotHelpful|openMemory)\?/, `foreign link target ${t}`);
    // The hostile command and URL text is escaped so no renderer can autolink it.
    assert.ok(!/(^|[^\\])command:workbench/.test(value), 'unescaped command: URI in hover');
    assert.ok(!value.includes('https://evil'), 'unescaped URL in hover');
    assert.strictEqual(md.supportHtml ?? false, false);
    if (md.isTrusted !== undefined && typeof md.isTrusted === 'object') {
      assert.deepStrictEqual([...md.isTrusted.enabledCommands].sort(), ['engram.markHelpful', 'engram.markNotHelpful', 'engram.openMemory']);
    } else {
      assert.notStrictEqual(md.isTrusted, true, 'hover trusts every command');
    }
  });
});
