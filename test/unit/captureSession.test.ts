// The capture session (core/capture/capturePipeline.ts) is what the window and `engram replay` both run:
// these drive it with trace events, as replay does, and check the rules that live between the tracker
// and an episode (which files may be steps, what a command's output becomes, what a typed line leaves).
import * as assert from 'assert';
import { CapturePipeline } from '../../src/core/capture/capturePipeline';
import { episodeMaterial, episodeMemories } from '../../src/core/capture/episodeMemories';
import type { TraceEvent } from '../../src/core/capture/trace';

const OWNER = { scope: 'workspace' as const, workspace: 'w' };
const CONFIG_BEFORE = "export const config = {\n  port: process.env.PORT ?? '8080',\n};\n";
const CONFIG_AFTER = 'export const config = {\n  port: Number(process.env.PORT ?? 8080),\n};\n';
const TS2322 = "src/config.ts(2,3): error TS2322: Type 'string' is not assignable to type 'number'.";

function run(events: TraceEvent[], opts = {}): CapturePipeline {
  const p = new CapturePipeline({ noiseThresholdMs: 4000, ...opts });
  for (const e of events) p.handle(e);
  return p;
}

describe('capture session: clean episodes', () => {
  it('build output and lockfiles a command writes are never steps or touched files', () => {
    const p = run([
      { t: 0, type: 'open', file: 'src/config.ts', text: CONFIG_BEFORE },
      { t: 100, type: 'command', command: 'npm run build', cwd: '.', exitCode: 2, output: `> tsc -p .\n\n${TS2322}\n` },
      { t: 2000, type: 'change', file: 'src/config.ts', text: CONFIG_AFTER },
      { t: 3000, type: 'disk', file: 'build/config.js', text: 'exports.config = {};\n', before: null },
      { t: 3000, type: 'disk', file: 'build/index.js', text: 'exports.x = 1;\n', before: null },
      { t: 3100, type: 'disk', file: 'package-lock.json', text: '{"lockfileVersion": 3}\n' },
      { t: 3200, type: 'disk', file: 'dist/app.js.map', text: '{}' },
      { t: 4000, type: 'command', command: 'npm run build', cwd: '.', exitCode: 0, output: '> tsc -p .\n' },
      { t: 5000, type: 'end' },
    ]);
    const [ep] = p.ended;
    assert.strictEqual(ep.tracked.outcome, 'success');
    assert.deepStrictEqual(ep.tracked.files, ['src/config.ts']);
    assert.deepStrictEqual(ep.tracked.steps.map(s => s.action), ['run npm run build', 'edit src/config.ts', 'run npm run build']);
    const { lesson } = episodeMemories(episodeMaterial(ep, OWNER, 9000), { episode: 'e', lesson: 'l' });
    assert.ok(lesson);
    assert.deepStrictEqual(lesson.scope, ['src/**']);
    assert.doesNotMatch(JSON.stringify(lesson), /build\/|package-lock|\.map\b/);
  });

  it("each file's diff appears once in the steps, on its last edit", () => {
    const p = run([
      { t: 0, type: 'open', file: 'src/config.ts', text: CONFIG_BEFORE },
      { t: 100, type: 'command', command: 'npm run build', cwd: '.', exitCode: 2, output: TS2322 },
      { t: 1000, type: 'change', file: 'src/config.ts', text: CONFIG_BEFORE.replace("'8080'", '8080') },
      { t: 1500, type: 'command', command: 'npm run build', cwd: '.', exitCode: 2, output: TS2322 },
      { t: 2000, type: 'change', file: 'src/config.ts', text: CONFIG_AFTER },
      { t: 2500, type: 'command', command: 'npm run build', cwd: '.', exitCode: 0, output: '' },
      { t: 3000, type: 'end' },
    ]);
    const { episode } = episodeMemories(episodeMaterial(p.ended[0], OWNER, 9000), { episode: 'e', lesson: 'l' });
    const edits = episode.steps.filter(s => s.action === 'edit src/config.ts');
    assert.strictEqual(edits.length, 2, 'two runs of edits, two steps');
    assert.deepStrictEqual(edits.map(s => !!s.detail), [false, true]);
  });

  it("keeps the head and the tail of a command's output, without the spinner (live and replay read it alike)", () => {
    const long = ['> demo@1.0.0 build', '⠙', '⠹', ...Array.from({ length: 300 }, (_, i) => `  compiling module ${i}`), TS2322].join('\n');
    const p = run([{ t: 0, type: 'command', command: 'npm run build', cwd: '.', exitCode: 2, output: long }]);
    const [ep] = p.openEpisodes();
    const detail = ep.steps[0].detail ?? '';
    assert.match(detail, /> demo@1\.0\.0 build/);
    assert.ok(detail.endsWith(TS2322), detail.slice(-200));
    assert.doesNotMatch(detail, /[⠙⠹]/);
    assert.strictEqual(ep.error?.code, 'TS2322');
  });

  it('a read-only list that fails opens nothing; a build in the same list does', () => {
    const p = run([
      { t: 0, type: 'command', command: 'echo $PATH; which tsc', exitCode: 1, output: '/usr/bin:/bin\n' },
      { t: 100, type: 'command', command: 'echo $PATH; tsc -p .', exitCode: 127, output: 'bash: tsc: command not found\n' },
    ]);
    assert.deepStrictEqual(p.openEpisodes().map(e => e.command?.line), ['echo $PATH; tsc -p .']);
  });
});

describe('capture session: a typed line is not an error', () => {
  it('typing `port: Number(process.env.PORT ?? 8080),` key by key leaves no episode and no lesson', () => {
    const target = '  port: Number(process.env.PORT ?? 8080),';
    const events: TraceEvent[] = [{ t: 0, type: 'open', file: 'src/config.ts', text: 'export const config = {\n  \n};\n' }];
    let t = 0;
    for (let i = 1; i <= target.trim().length; i++) {
      t += 300 + (i % 9 === 0 ? 2500 : 0);
      const line = '  ' + target.trim().slice(0, i);
      events.push({ t, type: 'change', file: 'src/config.ts', text: `export const config = {\n${line}\n};\n` });
      // What the TS server says about that text, a second late: a half-typed name (`Nu`), then "')'
      // expected." for as long as the `(` is open: over 10 s of typing, far past the threshold.
      const name = /(\w+)$/.exec(line)?.[1];
      const message = line.includes('(') && !line.includes(')') ? "')' expected." : name && name !== 'port' && 'Number'.startsWith(name) && name !== 'Number' ? `Cannot find name '${name}'.` : undefined;
      events.push({ t: t + 1000, type: 'diagnostics', file: 'src/config.ts', items: message ? [{ severity: 'error', source: 'ts', code: message.startsWith('Cannot') ? 2304 : 1005, message, line: 1 }] : [] });
    }
    events.push({ t: t + 1500, type: 'diagnostics', file: 'src/config.ts', items: [] });
    events.push({ t: t + 2000, type: 'save', file: 'src/config.ts' }, { t: t + 3000, type: 'end' });
    assert.ok(t > 15_000, `typing took ${t} ms`);
    const p = run(events);
    assert.deepStrictEqual(p.ended.map(e => e.tracked.error?.message), []);
    assert.deepStrictEqual(p.openEpisodes(), []);
  });
});

describe('capture session: the error changed', () => {
  it('`tsc: not found`, an install, then TS2322: the install resolved the first episode, which links to the second', () => {
    const p = run([
      { t: 0, type: 'command', command: 'npm run build', cwd: '.', exitCode: 127, output: '> demo@1.0.0 build\n> tsc -p .\n\nsh: 1: tsc: not found\n' },
      { t: 5000, type: 'command', command: 'npm install --save-dev typescript', cwd: '.', exitCode: 0, output: '⠙\n⠹\nadded 1 package in 2s\n' },
      { t: 6000, type: 'disk', file: 'package.json', text: '{"devDependencies":{"typescript":"^7.0.2"}}\n', before: '{}\n' },
      { t: 6000, type: 'disk', file: 'package-lock.json', text: '{}\n' },
      { t: 9000, type: 'command', command: 'npm run build', cwd: '.', exitCode: 2, output: `> tsc -p .\n\n${TS2322}\n` },
    ]);
    const [first] = p.ended;
    const [second] = p.openEpisodes();
    assert.strictEqual(first.tracked.outcome, 'success');
    assert.strictEqual(first.tracked.resolution, "the error changed to: Type 'string' is not assignable to type 'number'.");
    assert.strictEqual(first.tracked.changedTo?.code, 'TS2322');
    assert.strictEqual(first.tracked.nextEpisodeId, second.id);
    assert.strictEqual(second.error?.code, 'TS2322');
    const { lesson } = episodeMemories(episodeMaterial(first, OWNER, 9000), { episode: 'e', lesson: 'l' });
    assert.ok(lesson);
    assert.deepStrictEqual(lesson.commands, ['npm install --save-dev typescript']);
    assert.doesNotMatch(`${lesson.rootCause} ${lesson.fixApproach}`, /did not fix it|Not resolved/);
  });
});

describe('capture session: where a lesson applies', () => {
  // gcc 12 under make, as in the train trace gcc-long-log-undeclared: the error is in src/, the fix in include/.
  const GCC = "src/mod_097.c: In function ‘plugin_097’:\nsrc/mod_097.c:4:16: error: ‘LIMIT’ undeclared (first use in this function)\nmake: *** [Makefile:10: src/mod_097.o] Error 1\n";
  const header = (define: string) => `#ifndef PLUGIN_H\n#define PLUGIN_H\n${define}int run_plugin(void);\n#endif\n`;
  function lessonOf(opened: string): { scope: string[] } {
    const p = run([
      { t: 0, type: 'open', file: opened, text: 'int plugin_097(void) { return LIMIT * 2; }\n' },
      { t: 100, type: 'command', command: 'make', cwd: '/workspace', exitCode: 2, output: GCC },
      { t: 1000, type: 'open', file: 'include/plugin.h', text: header('') },
      { t: 2000, type: 'change', file: 'include/plugin.h', text: header('#define LIMIT 64\n') },
      { t: 4000, type: 'command', command: 'make', cwd: '/workspace', exitCode: 0, output: 'cc -c src/mod_097.c\n' },
      { t: 5000, type: 'end' },
    ]);
    const { lesson } = episodeMemories(episodeMaterial(p.ended[0], OWNER, 9000), { episode: 'e', lesson: 'l' });
    assert.ok(lesson);
    return lesson;
  }

  it("a terminal error's own file is in the lesson's scope beside the fix's file", () => {
    assert.deepStrictEqual(lessonOf('src/mod_097.c').scope, ['include/**', 'src/**']);
  });

  it('only a file the session knows by that path: a path it has never seen scopes nothing', () => {
    // The command's output names src/mod_097.c, but the open file is api/src/mod_097.c (make ran in api/).
    assert.deepStrictEqual(lessonOf('api/src/mod_097.c').scope, ['include/**']);
  });
});

describe('capture session: git rewrites files, and some git operations end by another command', () => {
  // The output is git 2.39's (test/fixtures/tool-output/runs/git-merge-conflict.txt).
  const conflict = 'API_URL=http://localhost\n<<<<<<< HEAD\nPORT=3000\n=======\nPORT=9090\n>>>>>>> feature\n';
  function merge(conclude: string): CapturePipeline {
    return run([
      { t: 0, type: 'disk', file: 'settings.env', text: conflict, before: 'API_URL=http://localhost\nPORT=3000\n' },
      { t: 100, type: 'command', command: 'git merge feature', cwd: '/workspace', exitCode: 1, output: 'Auto-merging settings.env\nCONFLICT (content): Merge conflict in settings.env\nAutomatic merge failed; fix conflicts and then commit the result.\n' },
      { t: 1000, type: 'open', file: 'settings.env', text: conflict },
      { t: 2000, type: 'change', file: 'settings.env', text: 'API_URL=http://localhost\nPORT=9090\n' },
      { t: 3000, type: 'command', command: conclude, cwd: '/workspace', exitCode: 0, output: '' },
      { t: 4000, type: 'end' },
    ]);
  }

  it('a merge stopped on a conflict succeeds when the commit concludes it; the lesson says which side was kept', () => {
    const p = merge('git add settings.env && git commit --no-edit');
    const [ep] = p.ended;
    assert.strictEqual(ep.tracked.outcome, 'success');
    const { lesson } = episodeMemories(episodeMaterial(ep, OWNER, 9000), { episode: 'e', lesson: 'l' });
    assert.ok(lesson);
    // The commit is how the merge ends, not a fix of its own.
    assert.strictEqual(lesson.fixApproach, 'Resolved the merge conflict in settings.env (line 2): kept `PORT=9090`, dropped `PORT=3000`.');
    assert.strictEqual(lesson.commands, undefined);
  });

  it('a commit does not conclude what git refused to start, and an amend concludes nothing', () => {
    assert.notStrictEqual(merge('git commit --amend --no-edit').ended[0]?.tracked.outcome, 'success');
    const p = run([
      { t: 0, type: 'command', command: 'git pull --rebase', cwd: '/workspace', exitCode: 128, output: 'error: cannot pull with rebase: You have unstaged changes.\nerror: please commit or stash them.\n' },
      { t: 1000, type: 'command', command: 'git commit -am wip', cwd: '/workspace', exitCode: 0, output: '' },
      { t: 2000, type: 'end' },
    ]);
    assert.notStrictEqual(p.ended[0]?.tracked.outcome, 'success');
  });

  it('what `git stash` wrote back is not an edit: the fix is the stash, the work in progress is never claimed', () => {
    const p = run([
      { t: 0, type: 'open', file: 'src/app.js', text: "console.log('v1');\n" },
      { t: 1000, type: 'change', file: 'src/app.js', text: "console.log('v2');\n" },
      { t: 2000, type: 'command', command: 'git pull --rebase', cwd: '/workspace', exitCode: 128, output: 'error: cannot pull with rebase: You have unstaged changes.\nerror: please commit or stash them.\n' },
      { t: 3000, type: 'disk', file: 'src/app.js', text: "console.log('v1');\n", before: "console.log('v2');\n" },
      { t: 3100, type: 'command', command: 'git stash', cwd: '/workspace', exitCode: 0, output: 'Saved working directory and index state WIP on main: af5343e init\n' },
      { t: 5000, type: 'command', command: 'git pull --rebase', cwd: '/workspace', exitCode: 0, output: 'Already up to date.\n' },
      { t: 6000, type: 'end' },
    ]);
    const [ep] = p.ended;
    assert.deepStrictEqual(ep.tracked.files, []);
    const { lesson } = episodeMemories(episodeMaterial(ep, OWNER, 9000), { episode: 'e', lesson: 'l' });
    assert.ok(lesson);
    assert.strictEqual(lesson.fixApproach, 'Ran `git stash`.');
    assert.deepStrictEqual(lesson.scope, ['src/**'], 'still where the user was working');
  });

  it('an agent writing a file before a build is an edit: only a git command that rewrites the tree owns its writes', () => {
    const p = run([
      { t: 0, type: 'command', command: 'npm run build', cwd: '.', exitCode: 2, output: `> tsc -p .\n\n${TS2322}\n` },
      { t: 1000, type: 'disk', file: 'src/config.ts', text: CONFIG_AFTER, before: CONFIG_BEFORE },
      { t: 1100, type: 'command', command: 'npm run build', cwd: '.', exitCode: 0, output: '> tsc -p .\n' },
      { t: 2000, type: 'end' },
    ]);
    assert.deepStrictEqual(p.ended[0].tracked.files, ['src/config.ts']);
  });
});

describe('capture session: one edit clears several errors of a file', () => {
  // The ShellCheck extension's diagnostics for `if [ "$1" = "--fast"]; then` (shellcheck 0.9), as the train
  // trace shellcheck-sc1020-editor recorded them: SC1020 and the parse errors it sets off.
  const diags = [
    { severity: 'information' as const, source: 'shellcheck', code: 'SC1009', message: 'The mentioned syntax error was in this if expression.', line: 1 },
    { severity: 'error' as const, source: 'shellcheck', code: 'SC1073', message: "Couldn't parse this test expression. Fix to allow more checks.", line: 1 },
    { severity: 'error' as const, source: 'shellcheck', code: 'SC1020', message: 'You need a space before the ].', line: 1 },
  ];
  it('one lesson, for the error that is not a follow-up, found by every error the edit cleared; an error that vanished later is its own', () => {
    const before = '#!/bin/sh\nif [ "$1" = "--fast"]; then\n  echo fast\nfi\n';
    const p = run([
      { t: 0, type: 'open', file: 'check.sh', text: before },
      { t: 500, type: 'diagnostics', file: 'check.sh', items: diags },
      { t: 6000, type: 'change', file: 'check.sh', text: before.replace('"--fast"]', '"--fast" ]') },
      { t: 6500, type: 'diagnostics', file: 'check.sh', items: [] },
      { t: 7000, type: 'save', file: 'check.sh' },
      { t: 9000, type: 'end' },
    ]);
    assert.strictEqual(p.ended.length, 2);
    const lessons = p.ended.map(ep => episodeMemories(episodeMaterial(ep, OWNER, 9000), { episode: 'e', lesson: 'l' }).lesson).filter(l => l);
    assert.strictEqual(lessons.length, 1);
    // Written for SC1020: SC1073 only says that an error stopped the parser ("Fix to allow more checks").
    assert.deepStrictEqual(lessons[0]!.errorText.split('\n'), ['You need a space before the ].', "also: Couldn't parse this test expression. Fix to allow more checks."]);
    assert.strictEqual(lessons[0]!.variantSignatures?.length, 1);
    assert.ok(lessons[0]!.variantSignatures![0].includes('SC1073'));
    assert.match(lessons[0]!.rootCause, /^SC1020 "You need a space before the \]\." at check\.sh:2 \(with SC1073 "Couldn't parse/);

    // The two errors going in two updates (two edits): two lessons.
    const q = run([
      { t: 0, type: 'open', file: 'check.sh', text: before },
      { t: 500, type: 'diagnostics', file: 'check.sh', items: diags },
      { t: 6000, type: 'change', file: 'check.sh', text: before + '#\n' },
      { t: 6500, type: 'diagnostics', file: 'check.sh', items: [diags[2]] },
      { t: 12000, type: 'change', file: 'check.sh', text: before.replace('"--fast"]', '"--fast" ]') },
      { t: 12500, type: 'diagnostics', file: 'check.sh', items: [] },
      { t: 15000, type: 'end' },
    ]);
    assert.strictEqual(q.ended.map(ep => episodeMemories(episodeMaterial(ep, OWNER, 9000), { episode: 'e', lesson: 'l' }).lesson).filter(l => l).length, 2);
  });
});
