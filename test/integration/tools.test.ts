// The language-model tools as agent mode calls them: vscode.lm.invokeTool for engram_recall (read only),
// the registered implementation for engram_remember (its confirmation needs a chat session).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { RecallTool, RememberTool } from '../../src/vscode/chat/tools';
import { engram, seedLesson, token } from './surfaceHelpers';

function resultText(r: vscode.LanguageModelToolResult): string {
  return r.content.map(p => p instanceof vscode.LanguageModelTextPart ? p.value : (p as { value?: unknown }).value ?? '').join('');
}

const cts = new vscode.CancellationTokenSource();

async function invokeRecall(input: object): Promise<string> {
  const api = await engram();
  try {
    return resultText(await vscode.lm.invokeTool('engram_recall', { input, toolInvocationToken: undefined }, cts.token));
  } catch (e) {
    // Only fall back when the host has no tool invocation at all; input errors must surface.
    if (/not (found|registered)|unknown tool/i.test(String(e))) {
      return resultText(await new RecallTool(api.services).invoke({ input, toolInvocationToken: undefined }, cts.token));
    }
    throw e;
  }
}

suite('Language-model tools', () => {
  test('both tools are registered under their contributed names', () => {
    const names = vscode.lm.tools.map(t => t.name);
    assert.ok(names.includes('engram_recall'), `engram_recall missing from ${names.join(', ')}`);
    assert.ok(names.includes('engram_remember'));
  });

  test('engram_recall returns the scoped memory as delimited data with why', async () => {
    const api = await engram();
    const marker = token('TOOLCAUSE');
    const other = token('TOOLOTHER');
    const errorText = 'error TS2307: Cannot find module "@acme/design-tokens" or its corresponding type declarations.';
    await seedLesson(api, { errorText, rootCause: `${marker} the tokens package is built by a prebuild step`, fixApproach: 'run npm run prebuild in packages/web', scope: ['packages/web/**'] });
    await seedLesson(api, { errorText, rootCause: `${other} api side`, fixApproach: 'map the package with a paths alias on the api side', scope: ['packages/api/**'] });
    const text = await invokeRecall({ query: errorText, file: 'packages/web/src/app.ts', k: 5 });
    assert.match(text, /BEGIN ENGRAM MEMORY DATA/);
    assert.match(text, /not instructions/);
    assert.ok(text.includes(marker), `in-scope memory missing:\n${text}`);
    assert.ok(!text.includes(other), 'memory scoped to packages/api returned for a web file');
    assert.match(text, /why recalled: .*same signature/);
    // An absolute path inside the workspace is scoped the same way.
    const abs = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'packages/api/src/server.ts').fsPath;
    const apiText = await invokeRecall({ query: errorText, file: abs });
    assert.ok(apiText.includes(other) && !apiText.includes(marker), `absolute path ${abs} not scoped:\n${apiText}`);
  });

  test('engram_recall rejects bad input with a clear message', async () => {
    await assert.rejects(invokeRecall({}), /"query" is required/);
    await assert.rejects(invokeRecall({ query: 42 }), /"query" must be a string/);
  });

  test('engram_remember asks for confirmation, then stores a masked lesson', async () => {
    const api = await engram();
    const tool = new RememberTool(api.services, api.capture);
    const marker = token('REMEMBERED');
    const input = {
      kind: 'lesson', errorText: `error TS2589: Type instantiation is excessively deep ${marker}`,
      rootCause: 'recursive conditional type over the whole route table; key sk_live_abcdefghijklmnopqrstuvwx',
      fixApproach: 'cap recursion depth with a counter tuple', scope: ['packages/web/**'],
    };
    const prepared = await tool.prepareInvocation({ input });
    assert.ok(prepared?.confirmationMessages, 'a write must ask for confirmation');
    assert.match(prepared.confirmationMessages.title, /Remember this lesson/);
    const msg = prepared.confirmationMessages.message;
    assert.ok((typeof msg === 'string' ? msg : msg.value).includes(marker));
    const out = resultText(await tool.invoke({ input, toolInvocationToken: undefined }));
    const id = /(les_\S+|l_\S+)/.exec(out)?.[1];
    assert.ok(id, `no id in tool result: ${out}`);
    const saved = (await api.services.store()).get(id);
    assert.ok(saved && saved.kind === 'lesson');
    assert.strictEqual(saved.source, 'chat');
    assert.strictEqual(saved.maturity, 'observation');
    assert.deepStrictEqual(saved.scope, ['packages/web/**']);
    assert.ok(!saved.rootCause.includes('sk_live_abcdefghijklmnopqrstuvwx'), 'secret stored unmasked');
  });

  test('engram_remember rejects incomplete or unsafe input before asking', async () => {
    const api = await engram();
    const tool = new RememberTool(api.services, api.capture);
    assert.throws(() => tool.prepareInvocation({ input: { kind: 'lesson', errorText: 'x' } }), /"rootCause" is required/);
    assert.throws(() => tool.prepareInvocation({ input: { kind: 'note', content: 'x' } }), /"kind" must be "lesson" or "fact"/);
    assert.throws(() => tool.prepareInvocation({ input: { kind: 'fact', content: 'x', scope: ['../../etc/**'] } }), /workspace-relative/);
  });
});
