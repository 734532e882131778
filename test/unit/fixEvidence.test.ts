// What a captured lesson says it was that fixed the error: the cases the lessons issue found wrong
// (first removed/added pair, a file that never changed, the install command lost in the steps).
import * as assert from 'assert';
import { buildEpisode, buildLesson, lessonTemplate, type EpisodeMaterial } from '../../src/core/episodeSummary';
import { EpisodeTracker, type ErrorInfo, type TrackedEpisode } from '../../src/core/episodeTracker';
import { lineDiff, type FileDiff } from '../../src/core/capture/diff';
import { commandConcerns, isFixCommand } from '../../src/core/capture/commandLines';
import { fixCommands } from '../../src/core/capture/fixEvidence';
import { signatureOf } from '../../src/core/signature';
import { isDuplicateLesson } from '../../src/core/trust';
import { fixture } from '../fixtures/tool-output';

const owner = { scope: 'workspace' as const, workspace: 'fixture', agent: 'user' };
const ctx = { fileOpen: true, serverAlive: true };

function errorOf(text: string, line?: number): ErrorInfo {
  const s = signatureOf(text)!;
  return { key: s.key, family: s.family, message: text.replace(/^error TS\d+: /, ''), code: s.code, tool: s.tool, line };
}

function material(t: TrackedEpisode, diffs: FileDiff[]): EpisodeMaterial {
  return { tracked: t, diffs, scope: ['**'], domain: 'typescript', owner, now: 1 };
}

/** A diagnostics episode in `file` that ends fixed after `between` ran. */
function diagEpisode(file: string, error: ErrorInfo, between: (t: EpisodeTracker) => void): TrackedEpisode {
  const t = new EpisodeTracker({ noiseThresholdMs: 1000, settleMs: 500, newId: () => 'ep' });
  t.diagnostics(file, [error], 0, ctx);
  t.tick(1000);
  between(t);
  t.diagnostics(file, [], 5000, ctx);
  const ended = t.tick(6000).find(e => e.type === 'ended');
  assert.ok(ended && ended.type === 'ended');
  return ended.episode;
}

describe('fix evidence: what the lesson says fixed it', () => {
  it('a tsconfig paths alias: the added alias, not the trailing comma the edit put on the line above', () => {
    const before = '{\n  "compilerOptions": {\n    "strict": true,\n    "outDir": "dist"\n  }\n}\n';
    const after = '{\n  "compilerOptions": {\n    "strict": true,\n    "outDir": "dist",\n    "paths": {\n      "@lib/*": ["src/lib/*"]\n    }\n  }\n}\n';
    const ep = diagEpisode('src/app.ts', errorOf("error TS2307: Cannot find module '@lib/dates' or its corresponding type declarations.", 0), t => t.edited('tsconfig.json', 2000));
    const { fixApproach, rootCause } = lessonTemplate(material(ep, [lineDiff('tsconfig.json', before, after)!]));
    assert.strictEqual(fixApproach, 'Added `"paths": { "@lib/*": ["src/lib/*"] }` to `compilerOptions` in tsconfig.json.');
    assert.ok(!/outDir/.test(fixApproach + rootCause), 'the cosmetic comma is not the fix');
  });

  it('a missing Python module fixed by pip install: the command, and app.py (never changed) is not claimed', () => {
    const t = new EpisodeTracker({ newId: () => 'ep' });
    const err = errorOf("Traceback (most recent call last):\n  File \"app.py\", line 1, in <module>\n    import requests\nModuleNotFoundError: No module named 'requests'");
    t.commandEnded({ id: 'c1', line: 'python app.py', exitCode: 1, error: err }, 0);
    t.commandEnded({ id: 'c2', line: 'pip install requests', exitCode: 0 }, 1000);
    const ended = t.commandEnded({ id: 'c3', line: 'python app.py', exitCode: 0 }, 2000).find(e => e.type === 'ended');
    assert.ok(ended && ended.type === 'ended');
    ended.episode.files.push('app.py'); // the active editor, as the controller adds it for scope
    assert.deepStrictEqual(fixCommands(ended.episode), ['pip install requests']);
    const m = material(ended.episode, []);
    const { fixApproach } = lessonTemplate(m);
    assert.strictEqual(fixApproach, 'Ran `pip install requests`.');
    const lesson = buildLesson(m, buildEpisode(m, 'ep'), 'l')!;
    assert.deepStrictEqual(lesson.commands, ['pip install requests']);
    assert.ok(!/changed app\.py|app\.py \(/i.test(lesson.fixApproach + lesson.rootCause));
  });

  it('a missing package fixed by npm install: the install is the fix of the editor error that names it', () => {
    const ep = diagEpisode('src/schema.ts', errorOf("error TS2307: Cannot find module 'zod' or its corresponding type declarations.", 0), t => {
      t.commandEnded({ id: 'c1', line: 'npm install zod', exitCode: 0 }, 2000);
    });
    assert.strictEqual(lessonTemplate(material(ep, [])).fixApproach, 'Ran `npm install zod`.');
  });

  it('a type error fixed at its line while an import was added: the change at the error line comes first', () => {
    const before = "import { a } from './a';\n\nexport function f() {\n  a();\n  a();\n  a();\n  const port: number = process.env.PORT ?? raw.port;\n  return port;\n}\n";
    const after = "import { a } from './a';\nimport { toInt } from './util/num';\n\nexport function f() {\n  a();\n  a();\n  a();\n  const port: number = toInt(process.env.PORT ?? raw.port);\n  return port;\n}\n";
    const ep = diagEpisode('src/port.ts', errorOf("error TS2322: Type 'string' is not assignable to type 'number'.", 6), t => t.edited('src/port.ts', 2000));
    const { fixApproach } = lessonTemplate(material(ep, [lineDiff('src/port.ts', before, after)!]));
    assert.strictEqual(fixApproach, "Changed `const port: number = process.env.PORT ?? raw.port;` to `const port: number = toInt(process.env.PORT ?? raw.port);` in src/port.ts (line 8); added `import { toInt } from './util/num';` in src/port.ts (line 2).");
  });

  it('Python: a line moved back under its block is the fix of a TabError, worded as an indentation change', () => {
    // The output python3 prints for this very file (test/fixtures/tool-output/python/py-tabs-spaces.a.txt).
    const before = 'for u in ["a"]:\n        u = u.strip()\n\tprint(u)\n';
    const after = 'for u in ["a"]:\n        u = u.strip()\n        print(u)\n';
    const t = new EpisodeTracker({ newId: () => 'ep' });
    t.commandEnded({ id: 'c1', line: 'python3 scrape.py', exitCode: 1, error: errorOf(fixture('python', 'py-tabs-spaces', 'a')) }, 0);
    t.edited('scrape.py', 1000);
    const ended = t.commandEnded({ id: 'c2', line: 'python3 scrape.py', exitCode: 0 }, 2000).find(e => e.type === 'ended');
    assert.ok(ended && ended.type === 'ended');
    const m = material(ended.episode, [lineDiff('scrape.py', before, after)!]);
    const lesson = buildLesson(m, buildEpisode(m, 'ep'), 'l')!;
    assert.strictEqual(lesson.unexplained, undefined);
    assert.strictEqual(lesson.fixApproach, 'Changed the indentation of `print(u)` (1 tab → 8 spaces) in scrape.py (line 3).');
    // Where indentation means nothing, the same edit is still cosmetic: nothing to claim.
    const js = material(ended.episode, [lineDiff('scrape.js', before, after)!]);
    assert.strictEqual(buildLesson(js, buildEpisode(js, 'ep'), 'l')!.unexplained, true);
  });

  it('a file created by touch is "created", not "changed"', () => {
    const t = new EpisodeTracker({ newId: () => 'ep' });
    t.commandEnded({ id: 'c1', line: 'python main.py', exitCode: 1, error: errorOf("ModuleNotFoundError: No module named 'helpers'") }, 0);
    t.commandEnded({ id: 'c2', line: 'touch helpers.py', exitCode: 0 }, 500);
    t.edited('helpers.py', 600);
    const ended = t.commandEnded({ id: 'c3', line: 'python main.py', exitCode: 0 }, 2000).find(e => e.type === 'ended');
    assert.ok(ended && ended.type === 'ended');
    const { fixApproach } = lessonTemplate(material(ended.episode, [lineDiff('helpers.py', undefined, '')!]));
    assert.strictEqual(fixApproach, 'Ran `touch helpers.py`; created helpers.py (empty).');
  });

  it('a command is a step only of the episodes it concerns', () => {
    const t = new EpisodeTracker({ noiseThresholdMs: 1000, newId: () => 'ts' });
    t.diagnostics('src/x.ts', [errorOf("error TS2322: Type 'string' is not assignable to type 'number'.", 3)], 0, ctx);
    const [opened] = t.tick(1000);
    assert.ok(opened.type === 'opened');
    t.commandEnded({ id: 'c1', line: 'python app.py', exitCode: 1, error: errorOf("NameError: name 'x' is not defined") }, 2000);
    t.commandEnded({ id: 'c2', line: 'pip install requests', exitCode: 0 }, 3000);
    assert.deepStrictEqual(opened.episode.steps.map(s => s.action), ['error in src/x.ts']);
    assert.ok(commandConcerns({ ...opened.episode, files: ['src/x.ts'] }, 'npx prettier --write src/x.ts'));
    assert.ok(isFixCommand('npm i -D @types/node') && isFixCommand('sudo apt-get install libssl-dev') && !isFixCommand('npm test') && !isFixCommand('python app.py'));
  });

  it('nothing observed: an unexplained lesson, low importance, never merged', () => {
    const ep = diagEpisode('src/y.ts', errorOf("error TS2304: Cannot find name 'foo'.", 1), () => undefined);
    const m = material(ep, []);
    const lesson = buildLesson(m, buildEpisode(m, 'ep'), 'l')!;
    assert.strictEqual(lesson.unexplained, true);
    assert.ok(lesson.importance <= 0.1);
    assert.ok(lesson.tags.includes('unexplained'));
    assert.strictEqual(isDuplicateLesson(lesson, { ...lesson, id: 'l2' }), false);
  });

  it('lessons merge only when the fix is the same: the same command merges, another fix does not', () => {
    const mk = (cmd: string) => {
      const ep = diagEpisode('src/schema.ts', errorOf("error TS2307: Cannot find module 'zod' or its corresponding type declarations.", 0), t => {
        t.commandEnded({ id: 'c', line: cmd, exitCode: 0 }, 2000);
      });
      const m = material(ep, []);
      return buildLesson(m, buildEpisode(m, 'ep'), 'l')!;
    };
    assert.ok(isDuplicateLesson(mk('npm install zod'), mk('npm  install zod')));
    assert.ok(!isDuplicateLesson(mk('npm install zod'), mk('npm install zod@3 --save-exact')));
  });
});

describe('diagnostics book: a restored episode\'s file', () => {
  it('after markUnknown, an empty set counts as a change (the error is seen gone)', async () => {
    const { DiagnosticsBook } = await import('../../src/core/capture/diagnosticErrors');
    const book = new DiagnosticsBook();
    assert.strictEqual(book.update('src/a.ts', []), undefined, 'a file never seen with errors: nothing to report');
    book.markUnknown('src/a.ts');
    assert.deepStrictEqual(book.update('src/a.ts', []), []);
    assert.strictEqual(book.update('src/a.ts', []), undefined);
  });
});

describe('fix evidence: a change of punctuation only', () => {
  // jq 1.6 on this file (read by scripts/port.sh): "parse error: Expected separator between values at line 4, column 9" (exit 4).
  const before = '{\n  "name": "shop",\n  "port": 8080\n  "debug": false\n}\n';
  const after = '{\n  "name": "shop",\n  "port": 8080,\n  "debug": false\n}\n';
  function ended(): TrackedEpisode {
    const t = new EpisodeTracker({ newId: () => 'ep' });
    const error = { key: 'shell:-:jq parse error', family: 'shell:other', message: 'bash exited with code 4: parse error: Expected separator between values at line 4, column 9', tool: 'shell' };
    t.commandEnded({ id: 'c1', line: 'bash scripts/port.sh', exitCode: 4, error }, 0);
    t.edited('config/app.json', 1000);
    const done = t.commandEnded({ id: 'c2', line: 'bash scripts/port.sh', exitCode: 0 }, 2000).find(e => e.type === 'ended');
    assert.ok(done && done.type === 'ended');
    return done.episode;
  }

  it('when nothing else changed, the added comma is the fix (not "unexplained")', () => {
    const m = material(ended(), [lineDiff('config/app.json', before, after)!]);
    const lesson = buildLesson(m, buildEpisode(m, 'ep'), 'l')!;
    assert.strictEqual(lesson.unexplained, undefined);
    assert.strictEqual(lesson.fixApproach, 'Changed `"port": 8080` to `"port": 8080,` in config/app.json (line 3).');
  });

  it('beside a change that says more, the comma is still not claimed', () => {
    const more = after.replace('"debug": false', '"debug": true');
    const m = material(ended(), [lineDiff('config/app.json', before, more)!]);
    assert.strictEqual(buildLesson(m, buildEpisode(m, 'ep'), 'l')!.fixApproach, 'Changed `"debug": false` to `"debug": true` in config/app.json (line 3).');
  });
});
