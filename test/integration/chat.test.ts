// @memory's handler, called directly with a recording response stream (this host has no language model,
// so the chat UI never calls participants). Checks what a user would see streamed.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Fact, Rule } from '../../src/core/types';
import { createChatHandler, followupProvider, type ChatResultMetadata } from '../../src/vscode/chat/participant';
import { engram, EXTENSION_ID, seedLesson, seedRule, token, workspaceRoot } from './surfaceHelpers';

interface Recorded { markdown: string; buttons: vscode.Command[]; references: vscode.Uri[]; progress: string[] }

function recorder(): { stream: vscode.ChatResponseStream; rec: Recorded } {
  const rec: Recorded = { markdown: '', buttons: [], references: [], progress: [] };
  const stream = {
    markdown: (v: string | vscode.MarkdownString) => { rec.markdown += typeof v === 'string' ? v : v.value; },
    anchor: (v: vscode.Uri | vscode.Location) => { rec.references.push(v instanceof vscode.Uri ? v : v.uri); },
    button: (c: vscode.Command) => { rec.buttons.push(c); },
    filetree: () => undefined,
    progress: (v: string) => { rec.progress.push(v); },
    reference: (v: vscode.Uri | vscode.Location) => { rec.references.push(v instanceof vscode.Uri ? v : v.uri); },
    push: () => undefined,
  } as unknown as vscode.ChatResponseStream;
  return { stream, rec };
}

/** Markdown with the escaping backslashes removed, to compare with the words a user reads. */
const plain = (md: string) => md.replace(/\\(.)/g, '$1');

type FakeModel = Pick<vscode.LanguageModelChat, 'sendRequest'>;

async function ask(prompt: string, command?: string, model?: FakeModel, references: vscode.ChatPromptReference[] = []): Promise<{ rec: Recorded; result: vscode.ChatResult }> {
  const api = await engram();
  const handler = createChatHandler(api.services, api.capture);
  const { stream, rec } = recorder();
  const request = { prompt, command, references, toolReferences: [], toolInvocationToken: undefined, model } as unknown as vscode.ChatRequest;
  const cts = new vscode.CancellationTokenSource();
  const result = (await handler(request, { history: [] }, stream, cts.token)) ?? {};
  return { rec, result };
}

function textOf(messages: vscode.LanguageModelChatMessage[]): string {
  return messages.map(m => m.content.map(p => p instanceof vscode.LanguageModelTextPart ? p.value : '').join('')).join('\n');
}

suite('@memory chat participant', () => {
  let marker: string;
  let lessonId: string;
  suiteSetup(async () => {
    const api = await engram();
    marker = token('ESMCAUSE');
    const l = await seedLesson(api, {
      errorText: "Error [ERR_MODULE_NOT_FOUND]: Cannot find module 'lodash-es' imported from /app/src/util.js",
      rootCause: `${marker} lodash-es is ESM-only and the build emitted CommonJS require()`,
      fixApproach: 'import from lodash (CommonJS) or switch the package to "type": "module"',
    });
    lessonId = l.id;
  });

  test('/recall (default) lists the matching memory with why, without a language model', async () => {
    const { rec, result } = await ask("Cannot find module 'lodash-es' when running the build");
    const text = plain(rec.markdown);
    assert.ok(text.includes(marker), `memory not streamed:\n${text}`);
    assert.match(text, /Past successes to follow/);
    assert.match(text, /why: .*(same signature|words)/);
    assert.deepStrictEqual((result.metadata as ChatResultMetadata).ids.includes(lessonId), true);
  });

  test('a Korean question reaches the English memory', async () => {
    const { rec } = await ask('lodash-es 모듈을 찾을 수 없다는 오류가 나요. 왜 그런가요?');
    assert.ok(plain(rec.markdown).includes(marker), `Korean question missed the memory:\n${rec.markdown}`);
  });

  test('a #file attached to the question scopes the recall to that file', async () => {
    const api = await engram();
    const web = token('WEBSCOPED');
    const apiSide = token('APISCOPED');
    const errorText = 'TypeError: fetch failed (ECONNREFUSED 127.0.0.1:5432)';
    await seedLesson(api, { errorText, rootCause: `${web} the web dev proxy is not running`, fixApproach: 'start the dev proxy first', scope: ['packages/web/**'] });
    await seedLesson(api, { errorText, rootCause: `${apiSide} postgres is not started in the api container`, fixApproach: 'docker compose up db', scope: ['packages/api/**'] });
    const file = vscode.Uri.joinPath(workspaceRoot(), 'packages/api/src/server.ts');
    const { rec } = await ask('fetch failed ECONNREFUSED 5432', undefined, undefined, [{ id: 'vscode.file', value: file }]);
    const text = plain(rec.markdown);
    assert.ok(text.includes(apiSide), `the api memory is missing:\n${text}`);
    assert.ok(!text.includes(web), 'a memory scoped to packages/web was shown for an api file');
    assert.ok(rec.references.some(u => u.toString() === file.toString()), 'the attached file is not referenced');
  });

  test('with a model: memories go as delimited data, the answer is streamed', async () => {
    const prompts: string[] = [];
    const model: FakeModel = {
      sendRequest: async (messages: vscode.LanguageModelChatMessage[]) => {
        const t = textOf(messages);
        prompts.push(t);
        const reply = t.includes('search keywords') ? ['lodash-es ERR_MODULE_NOT_FOUND'] : ['The fix is ', 'ANSWER-FROM-MODEL [1]'];
        return { text: (async function* () { yield* reply; })(), stream: (async function* () { /* unused */ })() } as unknown as vscode.LanguageModelChatResponse;
      },
    };
    const { rec, result } = await ask('왜 빌드가 lodash-es 때문에 실패하나요?', undefined, model);
    assert.ok(rec.markdown.includes('ANSWER-FROM-MODEL'), 'model answer not streamed');
    assert.ok(plain(rec.markdown).includes(marker), 'memories are listed before the answer');
    const answerPrompt = prompts.find(p => p.includes('BEGIN ENGRAM MEMORY DATA'));
    assert.ok(answerPrompt, 'no delimited context sent');
    assert.match(answerPrompt, /not instructions/);
    const nonce = /BEGIN ENGRAM MEMORY DATA (\S+)/.exec(answerPrompt)?.[1];
    assert.ok(nonce && answerPrompt.includes(`END ENGRAM MEMORY DATA ${nonce}`));
    const block = answerPrompt.slice(answerPrompt.indexOf('BEGIN ENGRAM'), answerPrompt.indexOf('END ENGRAM'));
    assert.ok(block.includes(marker), 'the memory is inside the data block');
    assert.ok(answerPrompt.indexOf('Question:') > answerPrompt.indexOf('END ENGRAM'), 'the question is outside the block');
    assert.strictEqual((result.metadata as ChatResultMetadata).usedModel, true);
  });

  test('a LanguageModelError becomes a readable message and the memories stay', async () => {
    const model: FakeModel = { sendRequest: async () => { throw vscode.LanguageModelError.Blocked('quota'); } };
    const { rec } = await ask("Cannot find module 'lodash-es'", undefined, model);
    const text = plain(rec.markdown);
    assert.ok(text.includes(marker));
    assert.match(text, /blocked \(quota or policy\)/);
  });

  test('/remember stores a masked rule from chat as an observation, with Undo', async () => {
    const api = await engram();
    const word = token('rememberme');
    const { rec, result } = await ask(`Always run npm run build before e2e ${word}; token ghp_abcdefghijklmnopqrstuvwxyz0123456789`, 'remember');
    const id = (result.metadata as ChatResultMetadata).ids[0];
    const saved = (await api.services.store()).get(id) as Rule | undefined;
    assert.ok(saved, 'nothing stored');
    assert.strictEqual(saved.kind, 'rule');
    assert.strictEqual(saved.source, 'chat');
    assert.strictEqual(saved.maturity, 'observation');
    assert.ok(saved.instruction.includes(word));
    assert.ok(!saved.instruction.includes('ghp_abcdefghijklmnopqrstuvwxyz0123456789'), 'secret stored unmasked');
    assert.ok(rec.buttons.some(b => b.command === 'engram.forget' && b.arguments?.[0] === id), 'no Undo button');
    const facts = await ask(`The staging database is called ${token('db')}`, 'remember');
    const fact = (await api.services.store()).get((facts.result.metadata as ChatResultMetadata).ids[0]) as Fact;
    assert.strictEqual(fact.kind, 'fact');
  });

  test('/forget: an exact id forgets, a query only offers buttons', async () => {
    const api = await engram();
    const store = await api.services.store();
    const word = token('forgetme');
    const rule = await seedRule(api, `Prefer pnpm over npm ${word}`);
    const q = await ask(`pnpm ${word}`, 'forget');
    assert.ok(store.get(rule.id), 'a query deleted without confirmation');
    assert.ok(q.rec.buttons.some(b => b.command === 'engram.forget' && b.arguments?.[0] === rule.id), 'no button to forget the match');
    await ask(rule.id, 'forget');
    assert.strictEqual(store.get(rule.id), undefined, 'exact id not forgotten');
  });

  test('/lessons lists rules in scope; /episode reports capture state', async () => {
    const api = await engram();
    const word = token('lessonrule');
    await seedRule(api, `Never import server code into the web bundle ${word}`, { maturity: 'rule' });
    const { rec } = await ask('', 'lessons');
    assert.ok(plain(rec.markdown).includes(word), `rule missing from /lessons:\n${rec.markdown}`);
    const ep = await ask('', 'episode');
    const open = api.capture?.openEpisodes() ?? [];
    if (!api.capture) assert.match(plain(ep.rec.markdown), /Capture is not running/);
    else if (!open.length) assert.match(plain(ep.rec.markdown), /No episode is open|Capture is paused/);
    else assert.ok(plain(ep.rec.markdown).includes(open[0].title.slice(0, 20)));
  });

  test('offers follow-ups after a recall', async () => {
    const { result } = await ask("Cannot find module 'lodash-es'");
    const cts = new vscode.CancellationTokenSource();
    const f = (await followupProvider.provideFollowups(result, { history: [] }, cts.token)) ?? [];
    assert.ok(f.some(x => x.command === 'lessons'));
  });

  test('records Korean and English transcripts for test/e2e/chat.e2e.mjs', async () => {
    const api = await engram();
    await seedLesson(api, {
      errorText: "Error [ERR_MODULE_NOT_FOUND]: Cannot find module 'lodash-es' imported from /app/src/util.js",
      rootCause: 'Tried pinning lodash-es to 4.17.20: the error stayed, the version was never the problem',
      fixApproach: 'pin lodash-es@4.17.20', scope: [],
    }, { outcome: 'failure' });
    const dir = process.env.ENGRAM_TRANSCRIPT_DIR
      ?? path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'test-results', 'chat');
    fs.mkdirSync(dir, { recursive: true });
    const questions: [string, string][] = [
      ['en', "Why does the build fail with Cannot find module 'lodash-es'?"],
      ['ko', 'lodash-es 모듈을 찾을 수 없다는 오류가 나요. 어떻게 고치나요?'],
    ];
    for (const [lang, q] of questions) {
      const { rec } = await ask(q);
      assert.ok(plain(rec.markdown).includes(marker), `${lang}: memory missing`);
      assert.match(plain(rec.markdown), /Past failures to avoid/);
      const doc = [
        '<!-- Recorded in the extension host by calling the @memory request handler directly: this host has no',
        'language model, so its chat UI never calls participants. Below the rule is exactly the markdown the participant streamed. -->',
        `**You:** @memory ${q}`,
        '',
        '---',
        '',
        rec.markdown,
        '',
        rec.references.length ? `_References: ${rec.references.map(u => path.basename(u.fsPath)).join(', ')}_` : '',
      ].join('\n');
      fs.writeFileSync(path.join(dir, `transcript-${lang}.md`), doc);
    }
  });
});
