import * as assert from 'assert';
import { Bm25Index } from '../../src/core/lexical';
import { memoryText } from '../../src/core/memoryText';
import { indexSignature, RecallEngine, signatureKeyOf } from '../../src/core/recall';
import { MemoryState } from '../../src/core/reduce';
import { reasonTexts } from '../../src/core/reasons';
import type { Episode, Fact, Lesson, Memory, RecallQuery, RecallResult } from '../../src/core/types';
import { aLesson } from './memories';

const NOW = Date.UTC(2026, 5, 1);
const TS2322 = "src/app.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.";

function lesson(id: string, errorText: string, over: Partial<Lesson> = {}): Lesson {
  return aLesson({
    id, createdAt: NOW - 1000, updatedAt: NOW - 1000, errorSignature: signatureKeyOf(errorText) ?? errorText, errorText,
    rootCause: 'cause of ' + id, fixApproach: 'fix for ' + id, ...over,
  });
}

function fact(id: string, content: string, over: Partial<Fact> = {}): Fact {
  return {
    id, kind: 'fact', owner: { scope: 'workspace' }, createdAt: NOW - 1000, updatedAt: NOW - 1000, accessCount: 0,
    importance: 0.5, source: 'manual', tags: [], scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation',
    content, type: 'fact', ...over,
  };
}

/** A result with its reasons in the English the CLI and MCP show, which these assertions read. */
type Worded = RecallResult & { why: string[] };

function engine(memories: Memory[], workspaceId?: string): { recall(q: RecallQuery): Promise<string[]>; full(q: RecallQuery): Promise<Worded[]> } {
  const state = new MemoryState();
  const lexical = new Bm25Index();
  const bySignature = new Map<string, Set<string>>();
  for (const m of memories) {
    state.apply({ type: 'recorded', id: m.id, at: m.createdAt, memory: m });
    lexical.add(m.id, memoryText(m));
    indexSignature(bySignature, m);
  }
  const e = new RecallEngine({ state, lexical, bySignature, workspaceId });
  return {
    recall: async q => (await e.recall({ now: NOW, ...q })).map(r => r.memory.id),
    full: async q => (await e.recall({ now: NOW, ...q })).map(r => ({ ...r, why: reasonTexts(r.reasons) })),
  };
}

describe('recall', () => {
  const memories: Memory[] = [
    lesson('web-ts', TS2322, { scope: ['packages/web/**'], rootCause: 'form values are strings', fixApproach: 'parse with Number()' }),
    lesson('api-ts', TS2322, { scope: ['packages/api/**'], rootCause: 'env vars are strings', fixApproach: 'coerce with zod' }),
    lesson('lodash', "Error: Cannot find module 'lodash'\n    at Module._resolveFilename (node:internal/modules/cjs/loader:1145:15)",
      { rootCause: 'lodash is a dependency of the web package only', fixApproach: 'install it in the workspace that imports it' }),
    lesson('borrow', 'error[E0382]: borrow of moved value: `v`', { rootCause: 'the vector was moved into the closure', fixApproach: 'clone before the move or borrow' }),
    lesson('eacces', 'Error: EACCES: permission denied, open \'/var/log/app.log\'', { rootCause: 'log dir owned by root', fixApproach: 'write logs under the user cache dir' }),
    fact('pnpm', 'This repo uses pnpm workspaces; never run npm install at the root'),
  ];

  it('scope twins: the same error recalls the memory of the file\'s scope, and excludes the other', async () => {
    const e = engine(memories);
    const web = await e.recall({ text: TS2322, file: 'packages/web/src/form.tsx' });
    assert.strictEqual(web[0], 'web-ts');
    assert.ok(!web.includes('api-ts'), `api twin must be out of scope: ${web}`);
    const api = await e.recall({ text: TS2322, file: 'packages/api/src/env.ts' });
    assert.strictEqual(api[0], 'api-ts');
    assert.ok(!api.includes('web-ts'));
  });

  it('without a file both twins come back (no scope filter)', async () => {
    const ids = await engine(memories).recall({ text: TS2322 });
    assert.ok(ids.includes('web-ts') && ids.includes('api-ts'), ids.join());
  });

  it('a tighter scope ranks first when both match the file', async () => {
    const e = engine([
      lesson('everywhere', TS2322, { scope: [] }),
      lesson('tight', TS2322, { scope: ['packages/web/src/**'] }),
      lesson('loose', TS2322, { scope: ['packages/**'] }),
    ]);
    assert.deepStrictEqual(await e.recall({ text: TS2322, file: 'packages/web/src/a.ts' }), ['tight', 'loose', 'everywhere']);
  });

  it('explains why: signature, scope, words', async () => {
    const [r] = await engine(memories).full({ text: TS2322, file: 'packages/web/src/form.tsx' });
    assert.ok(r.why.includes('same signature TS2322'), r.why.join(' | '));
    assert.ok(r.why.includes('scope packages/web/**'), r.why.join(' | '));
    assert.ok(r.why.some(w => w.startsWith('words: ') && w.includes('assignable')), r.why.join(' | '));
    assert.ok(r.score > 0 && r.score <= 1);
  });

  it('raw multi-line output finds the memory by its signature even when the file and place differ', async () => {
    const raw = "npm run build\n> tsc -p .\npackages/web/src/other.ts(10,2): error TS2322: Type 'string' is not assignable to type 'number'.\nFound 1 error.";
    const [r] = await engine(memories).full({ text: raw, file: 'packages/web/src/other.ts' });
    assert.strictEqual(r.memory.id, 'web-ts');
    assert.ok(r.why.some(w => w.startsWith('same signature')));
    assert.ok(!r.weak);
  });

  it('the same error code with other types is said, marked weak, and kept out of proactive recall', async () => {
    const raw = "npm run build\n> tsc -p .\npackages/web/src/other.ts(10,2): error TS2322: Type 'boolean' is not assignable to type 'string'.\nFound 1 error.";
    const e = engine(memories);
    const [r] = await e.full({ text: raw, file: 'packages/web/src/other.ts' });
    assert.strictEqual(r.memory.id, 'web-ts');
    assert.ok(r.why.includes("same error TS2322, different types 'boolean → string'"), r.why.join(' | '));
    assert.strictEqual(r.weak, true);
    assert.deepStrictEqual(await e.recall({ text: raw, file: 'packages/web/src/other.ts', proactive: true }), []);
  });

  it('a Korean question reaches an English memory', async () => {
    const e = engine(memories);
    assert.strictEqual((await e.recall({ text: '모듈을 찾을 수 없다는 에러가 나요' }))[0], 'lodash');
    assert.strictEqual((await e.recall({ text: '이동된 값 빌림 오류' }))[0], 'borrow');
    assert.strictEqual((await e.recall({ text: '로그 파일 권한 거부 에러' }))[0], 'eacces');
  });

  it('an English question reaches error-text memories', async () => {
    const e = engine(memories);
    assert.strictEqual((await e.recall({ text: "why can't node find lodash?" }))[0], 'lodash');
    assert.strictEqual((await e.recall({ text: 'permission denied writing the log file' }))[0], 'eacces');
  });

  it('constraints in scope always come, even with no matching word and past the cap', async () => {
    const gate = lesson('gate', 'no direct fetch in components', {
      scope: ['packages/web/**'], maturity: 'constraint', rootCause: 'all HTTP goes through apiClient', fixApproach: 'use apiClient',
    });
    const e = engine([...memories, gate]);
    const web = await e.full({ text: TS2322, file: 'packages/web/src/form.tsx', k: 1 });
    assert.deepStrictEqual(web.map(r => r.memory.id), ['web-ts', 'gate']);
    assert.ok(web[1].why.includes('constraint in scope'));
    const api = await e.recall({ text: TS2322, file: 'packages/api/src/env.ts', k: 1 });
    assert.deepStrictEqual(api, ['api-ts'], 'a constraint scoped elsewhere stays out');
  });

  it('caps the results', async () => {
    const many = Array.from({ length: 20 }, (_, i) => lesson(`l${i}`, `Error: Cannot find module 'pkg${i}'`));
    assert.strictEqual((await engine(many).recall({ text: 'Error: Cannot find module' })).length, 5);
    assert.strictEqual((await engine(many).recall({ text: 'Error: Cannot find module', k: 2 })).length, 2);
  });

  it('filters by outcome: success = to follow, failure = to avoid', async () => {
    const ep = (id: string, outcome: Episode['outcome']): Episode => ({
      id, kind: 'episode', owner: { scope: 'workspace' }, createdAt: NOW - 1000, updatedAt: NOW - 1000, accessCount: 0, importance: 0.5,
      source: 'captured', tags: [], scope: [], confidence: { alpha: 1, beta: 1 }, maturity: 'observation', startedAt: NOW - 2000,
      trigger: 'webpack build runs out of heap memory', steps: [], toolsUsed: [], outcome, lessonsLearned: [], files: [], sourceIds: [],
      summary: `webpack heap out of memory (${outcome})`,
    });
    const e = engine([ep('won', 'success'), ep('lost', 'failure'), ep('gave-up', 'abandoned')]);
    assert.deepStrictEqual(await e.recall({ text: 'webpack heap out of memory', outcome: 'success' }), ['won']);
    assert.deepStrictEqual((await e.recall({ text: 'webpack heap out of memory', outcome: 'failure' })).sort(), ['gave-up', 'lost']);
  });

  it('excludes expired, quarantined and other owners\' memories', async () => {
    const e = engine([
      lesson('expired', "Error: Cannot find module 'lodash'", { expiresAt: NOW - 1 }),
      lesson('quarantined', "Error: Cannot find module 'lodash'", { quarantined: { reason: 'file gone', at: NOW - 5 } }),
      lesson('personal', "Error: Cannot find module 'lodash'", { owner: { scope: 'personal' } }),
      lesson('live', "Error: Cannot find module 'lodash'"),
    ]);
    const q = { text: "Cannot find module 'lodash'" };
    assert.deepStrictEqual(await e.recall(q), ['live']);
    assert.ok((await e.recall({ ...q, includeQuarantined: true })).includes('quarantined'));
    assert.deepStrictEqual(await e.recall({ ...q, owners: ['personal'] }), ['personal']);
  });

  it('prefers the trusted memory when two say the same thing', async () => {
    const e = engine([
      lesson('doubtful', "Error: Cannot find module 'lodash'", { confidence: { alpha: 1, beta: 6 } }),
      lesson('proven', "Error: Cannot find module 'lodash'", { confidence: { alpha: 8, beta: 1 }, maturity: 'rule' }),
    ]);
    assert.strictEqual((await e.recall({ text: "Cannot find module 'lodash'" }))[0], 'proven');
  });

  it('never averages disagreeing workspaces: a fix refuted here ranks below a modest one, confirmed there it ranks first', async () => {
    // 20 prevented in wsB, 3 still_failed in wsA: the plain mean (21/25 = 0.84) would put it first everywhere.
    const memories = [
      lesson('disputed', "Error: Cannot find module 'lodash'", {
        confidence: { alpha: 21, beta: 4 }, perWorkspace: { wsA: { prevented: 0, stillFailed: 3 }, wsB: { prevented: 20, stillFailed: 0 } },
      }),
      lesson('modest', "Error: Cannot find module 'lodash'", { confidence: { alpha: 3, beta: 1 } }),
    ];
    const q = { text: "Cannot find module 'lodash'" };
    assert.deepStrictEqual(await engine(memories, 'wsA').recall(q), ['modest', 'disputed'], 'refuted in wsA: its own tally decides');
    assert.deepStrictEqual(await engine(memories, 'wsB').recall(q), ['disputed', 'modest'], 'confirmed in wsB');
    assert.deepStrictEqual(await engine(memories, 'wsC').recall(q), ['modest', 'disputed'], 'no tally of its own: the pessimistic one');
    const disputed = (await engine(memories, 'wsA').full(q)).find(r => r.memory.id === 'disputed');
    assert.ok(disputed?.why.some(w => w.includes('same signature')), 'still recalled, for the same reason, just lower');
  });

  it('a superseded fact is history: the newer value answers, and the older returns if the newer is forgotten', async () => {
    const older = fact('npm', 'The package manager is npm', { key: 'packageManager', supersededBy: 'pnpm' });
    const newer = fact('pnpm', 'The package manager is pnpm', { key: 'packageManager', supersedes: 'npm' });
    assert.deepStrictEqual(await engine([older, newer]).recall({ text: 'package manager' }), ['pnpm']);
    assert.deepStrictEqual(await engine([older]).recall({ text: 'package manager' }), ['npm']);
  });
});

describe('recall: specific beats general, details tell near misses apart, reasons people can read', () => {
  const TRACE = [
    'node:internal/modules/cjs/loader:1210', '  throw err;', '  ^', '',
    "Error: Cannot find module 'express'", 'Require stack:', '- /srv/app/web/server.js',
    '    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)',
    '    at Module._load (node:internal/modules/cjs/loader:1038:27)',
    '    at Object.<anonymous> (/srv/app/web/server.js:1:17)',
    '    at Module._compile (node:internal/modules/cjs/loader:1521:14)',
    '    at Module._extensions..js (node:internal/modules/cjs/loader:1623:10)',
    '    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12) {',
    "  code: 'MODULE_NOT_FOUND',", "  requireStack: [ '/srv/app/web/server.js' ]", '}', '', 'Node.js v20.20.2',
  ].join('\n');

  it('of two memories about the same error, the tighter scope ranks first whatever the length of their texts', async () => {
    const general = lesson('general', TRACE + '\n' + TRACE.replace(/server/g, 'worker'), {
      rootCause: 'express is missing: the install step was skipped after a clean checkout of the repository',
      fixApproach: 'run npm ci at the root, then start the server again; express ships with the web package and is required by the server entry point and its middleware',
    });
    const specific = lesson('web-only', "Error: Cannot find module 'express'\n  code: 'MODULE_NOT_FOUND'", { scope: ['web/**'], rootCause: 'web has its own package.json', fixApproach: 'npm install inside web/' });
    const e = engine([general, specific]);
    assert.deepStrictEqual(await e.recall({ text: TRACE, file: 'web/server.js' }), ['web-only', 'general']);
    // Outside web/ only the general memory is in scope.
    assert.deepStrictEqual(await e.recall({ text: TRACE, file: 'api/server.js' }), ['general']);
  });

  it('another module under the same error code is said in the reason and ranks below the exact one', async () => {
    const dates = "src/app.ts(1,28): error TS2307: Cannot find module '@lib/dates' or its corresponding type declarations.";
    const format = "src/page.ts(1,23): error TS2307: Cannot find module '@lib/format' or its corresponding type declarations.";
    const e = engine([
      lesson('dates', dates, { confidence: { alpha: 9, beta: 1 }, maturity: 'rule', rootCause: 'alias missing', fixApproach: 'add paths' }),
      lesson('format', format, { rootCause: 'file missing', fixApproach: 'create src/lib/format.ts' }),
    ]);
    const results = await e.full({ text: format, file: 'src/page.ts' });
    assert.deepStrictEqual(results.map(r => r.memory.id), ['format', 'dates'], 'exact first, although the other is a trusted rule');
    // The reason names the module at hand, which the memory was not about.
    assert.ok(results[1].why.includes("same error TS2307, different module '@lib/format'"), results[1].why.join(' | '));
    assert.ok(results[1].weak && !results[0].weak);
    assert.deepStrictEqual(await e.recall({ text: format, file: 'src/page.ts', proactive: true }), ['format']);
  });

  it('reasons name meaning-carrying words only: no numbers, stack-frame internals or path fragments', async () => {
    const e = engine([lesson('express', TRACE.replace(/web/g, 'api'), { rootCause: 'express not installed', fixApproach: 'npm install express' })]);
    const [r] = await e.full({ text: TRACE.replace('1:17', '9:3'), file: 'web/server.js' });
    const words = r.why.find(w => w.startsWith('words: ')) ?? '';
    assert.ok(words.includes('express'), words);
    for (const bad of ['1210', '1623', '164', '_compile', '_extensions', 'executeuserentrypoint', 'runmain', 'run_main', 'anonymous', 'node:internal', 'srv', 'web', 'v20']) {
      assert.ok(!words.includes(bad), `${bad} in ${words}`);
    }
  });

  it('proactive recall is quiet for an error no memory is about, search still answers and marks it weak', async () => {
    const e = engine([lesson('express', TRACE, { rootCause: 'express not installed', fixApproach: 'npm install express' })]);
    const unknown = TRACE.replace("Error: Cannot find module 'express'", 'RangeError: Maximum call stack size exceeded').replace("  code: 'MODULE_NOT_FOUND',\n", '');
    assert.deepStrictEqual(await e.recall({ text: unknown, file: 'web/server.js', proactive: true }), []);
    const lenient = await e.full({ text: unknown, file: 'web/server.js' });
    assert.ok(lenient.every(r => r.weak), JSON.stringify(lenient.map(r => [r.memory.id, r.weak])));
  });
});

describe('recall: what the error names, and where a lesson answers', () => {
  const SETW = "tools/table.cpp:2:30: error: ‘setw’ is not a member of ‘std’";
  const QUOTED = "cli/listing.cpp:2:30: error: ‘quoted’ is not a member of ‘std’";
  const captured = (id: string, errorText: string, over: Partial<Lesson> = {}) =>
    lesson(id, errorText, { change: '--- a.cpp\n+++ a.cpp\n+#include <iomanip>', fixApproach: 'Added `#include <iomanip>`', ...over });

  it('a captured fix for one name is a near miss for another name under the same signature: weak, never unasked', async () => {
    const e = engine([captured('setw', SETW.replace('tools/table', 'cli/a'), { scope: ['cli/**'] })]);
    const [r] = await e.full({ text: QUOTED, file: 'cli/listing.cpp' });
    assert.strictEqual(r?.memory.id, 'setw');
    assert.ok(r.weak && r.why.some(w => w.includes("different name 'quoted'")), r.why.join(' | '));
    assert.deepStrictEqual(await e.recall({ text: QUOTED, file: 'cli/listing.cpp', proactive: true }), []);
    // The file the error is in is where, not what: the same name in another file is the same error.
    assert.deepStrictEqual(await e.recall({ text: SETW.replace('tools/table', 'cli/b'), file: 'cli/b.cpp', proactive: true }), ['setw']);
  });

  it('names of the program\'s own bindings do not tell errors apart; a lesson in words speaks of the kind', async () => {
    const unbound = (v: string) => `src/cart.erl:4:30: variable '${v}' is unbound`;
    const e = engine([captured('erl', unbound('Pric'), { change: '-Pric\n+Price' })]);
    assert.deepStrictEqual(await e.recall({ text: unbound('Taxx'), file: 'src/invoice.erl', proactive: true }), ['erl']);
    const worded = engine([lesson('libm', "sim.c:(.text+0x2b): undefined reference to `sqrt'", { rootCause: 'libm is not linked by default', fixApproach: 'link with -lm' })]);
    assert.deepStrictEqual(await worded.recall({ text: "stats.c:(.text+0x33): undefined reference to `pow'", file: 'stats.c', proactive: true }), ['libm']);
  });

  it('a lesson answers only where its scope covers the file: the same error elsewhere gets the lesson of that place, or nothing', async () => {
    // Recall is scoped (README, "Recall"): a lesson seen in cli/ speaks for cli/; the same error in tools/
    // is answered by what was learnt there. A lesson reaches further when its scope grows (merge by fix).
    const cli = captured('cli', SETW.replace('tools/table', 'cli/a'), { scope: ['cli/**'] });
    assert.deepStrictEqual(await engine([cli]).recall({ text: SETW, file: 'tools/table.cpp', proactive: true }), []);
    assert.deepStrictEqual((await engine([cli]).full({ text: SETW, file: 'tools/table.cpp' })).map(r => r.memory.id), []);
    const tools = captured('tools', SETW, { scope: ['tools/**'], fixApproach: 'Added `#include <iomanip>` to tools/table.h' });
    assert.deepStrictEqual(await engine([cli, tools]).recall({ text: SETW, file: 'tools/table.cpp' }), ['tools']);
  });
});

describe('recall: words alone must say the memory\'s own error too', () => {
  it('a lesson about another column shares every word of the query but its own: weak, never unasked', async () => {
    const sqlite = (col: string) => `Parse error near line 3: table users has no column named ${col}`;
    const e = engine([
      lesson('emial', `sqlite3 exited with code 1: ${sqlite('emial')}`, { errorSignature: `shell:-:sqlite3 exited with code <n>: ${sqlite('emial').toLowerCase().replace('3', '<n>')}` }),
      lesson('other', 'Error: listen EADDRINUSE: address already in use :::3000'),
    ]);
    assert.deepStrictEqual(await e.recall({ text: sqlite('emial'), file: 'db/seed.sql', proactive: true }), ['emial']);
    assert.deepStrictEqual(await e.recall({ text: sqlite('phone'), file: 'db/seed.sql', proactive: true }), []);
    assert.strictEqual((await e.full({ text: sqlite('phone'), file: 'db/seed.sql' }))[0]?.memory.id, 'emial');
  });

  it('a test runner\'s summary line is told apart by which test failed (libtest `test x ... FAILED`)', async () => {
    const run = (t: string) => `running 1 test\ntest ${t} ... FAILED\n\nfailures:\n\n---- ${t} stdout ----\n\nerror: test failed, to rerun pass \`--lib\``;
    const e = engine([lesson('hours', 'error: test failed, to rerun pass `--lib`\ntest: tests::parses_hours', { change: '-n * 60\n+n * 3600' })]);
    assert.deepStrictEqual(await e.recall({ text: run('tests::parses_hours'), file: 'src/lib.rs', proactive: true }), ['hours']);
    assert.deepStrictEqual(await e.recall({ text: run('tests::rejects_empty'), file: 'src/lib.rs', proactive: true }), []);
  });
});

describe('recall: the same error in another output format', () => {
  it('the lesson\'s error code with its whole message in the query answers unasked; the code alone does not', async () => {
    const e = engine([lesson('sc1020', 'You need a space before the ].', { errorSignature: 'shellcheck:SC1020:you need a space before the ]' })]);
    const cli = 'In scripts/lint.sh line 2:\nif [ -z "$CI"]; then\n                 ^-- SC1020 (error): You need a space before the ].\n';
    assert.deepStrictEqual(await e.recall({ text: cli, file: 'scripts/lint.sh', proactive: true }), ['sc1020']);
    const other = 'In scripts/lint.sh line 2:\n                 ^-- SC1020 (error): You need a space after the [.\n';
    assert.deepStrictEqual(await e.recall({ text: other, file: 'scripts/lint.sh', proactive: true }), []);
  });
});
