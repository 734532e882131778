// Clean episodes, the lesson's part (issue 17): build output and lockfiles never enter a lesson's scope,
// files or fix; a lockfile change is one line of the packages it gained, lost or moved, read from the
// lockfiles the recorded installs wrote (test/fixtures/tool-output/runs/*lock*).
import * as assert from 'assert';
import { episodeMaterial, episodeMemories } from '../../src/core/capture/episodeMemories';
import { buildOutputDirs, isGenerated } from '../../src/core/capture/fixEvidence';
import { isLockfile, lockfileChange } from '../../src/core/capture/lockfiles';
import type { TrackedEpisode } from '../../src/core/episodeTracker';
import { runFile, runFixture } from '../fixtures/tool-output';

describe('clean episodes: lockfiles in one line', () => {
  it('npm: the packages an install added, from package-lock.json\'s own entries', () => {
    const line = lockfileChange('package-lock.json', runFile('ts3-package-lock.1.json'), runFile('ts3-package-lock.2.json'));
    assert.match(line, /^package-lock\.json: \+@types\/node@\d+\.\d+\.\d+, \+undici-types@\d+\.\d+\.\d+$/);
    const created = lockfileChange('package-lock.json', undefined, runFile('ts2-package-lock.1.json'));
    assert.match(created, /^package-lock\.json: \+typescript@7\.0\.2, /);
  });

  it('pnpm, yarn and Cargo lockfiles as their installs wrote them', () => {
    assert.strictEqual(lockfileChange('pnpm-lock.yaml', runFile('pnpm-lock.1.yaml'), runFile('pnpm-lock.2.yaml')), 'pnpm-lock.yaml: +zod@4.6.7');
    assert.strictEqual(lockfileChange('yarn.lock', runFile('yarn.1.lock'), runFile('yarn.2.lock')), 'yarn.lock: +zod@4.6.7');
    assert.strictEqual(lockfileChange('Cargo.lock', runFile('Cargo.1.lock'), runFile('Cargo.2.lock')), 'Cargo.lock: +money@0.1.0');
    assert.strictEqual(lockfileChange('web/yarn.lock', runFile('yarn.2.lock'), runFile('yarn.1.lock')), 'web/yarn.lock: -zod@4.6.7');
  });

  it('what is build output: the usual folders, and tsc\'s configured outDir when the tsconfig is known', () => {
    for (const f of ['build/config.js', 'dist/index.js', 'out/main.js', 'target/debug/app', 'app/__pycache__/x.pyc', 'pkg.egg-info/PKG-INFO', 'package-lock.json', 'go.sum']) assert.ok(isGenerated(f), f);
    for (const f of ['src/config.ts', 'buildscripts/a.sh', 'lib/util.ts', 'tsconfig.json', 'package.json']) assert.ok(!isGenerated(f), f);
    assert.deepStrictEqual(buildOutputDirs('tsconfig.json', '{\n  // emitted here\n  "compilerOptions": { "outDir": "./lib", "declarationDir": "types/", },\n}\n'), ['lib/', 'types/']);
    assert.deepStrictEqual(buildOutputDirs('packages/api/tsconfig.build.json', '{ "compilerOptions": { "outDir": "lib" } }'), ['packages/api/lib/']);
    assert.ok(isGenerated('lib/util.js', ['lib/']) && !isGenerated('library/a.ts', ['lib/']));
    // bin/ holds a project's own scripts (bin/slugify.pl, bin/rails, bin/cli.js); only a .NET build's
    // configuration folders under it, and compiled files anywhere, are output.
    for (const f of ['bin/slugify.pl', 'bin/cli.js', 'app/bin/run.sh']) assert.ok(!isGenerated(f), f);
    for (const f of ['bin/Debug/net8.0/app.dll', 'src/App/bin/Release/App.exe', 'obj/project.assets.json']) assert.ok(isGenerated(f), f);
    assert.ok(isLockfile('packages/web/pnpm-lock.yaml') && !isLockfile('package.json'));
  });

  it("an install's episode: lockfile and outDir files stay out of scope, files and fix; the lockfile is one line in the steps", () => {
    const build = runFixture('ts3-build-node-types');
    const tracked: TrackedEpisode = {
      id: 'ep1', source: 'terminal', key: 't|npm run build', startedAt: 0, lastActivity: 3000, endedAt: 3000, outcome: 'success', recurrences: 0, sourceIds: [],
      command: { id: 'c1', line: 'npm run build', exitCode: 2, output: build.text, normalised: 'npm run build' },
      error: { key: 'tsc:TS2307:cannot find module <id> or its corresponding type declarations', family: 'tsc:module', message: "Cannot find module 'fs' or its corresponding type declarations.", code: 'TS2307', tool: 'tsc' },
      files: ['package.json', 'package-lock.json', 'lib/env.js', 'lib/env.d.ts'],
      steps: [
        { action: 'run npm run build', result: 'exit 2' }, { action: 'run npm install --save-dev @types/node', result: 'passed' },
        { action: 'edit package-lock.json', result: '1 change' }, { action: 'edit package.json', result: '1 change' }, { action: 'run npm run build', result: 'passed' },
      ],
    };
    const tsconfig = '{ "compilerOptions": { "outDir": "lib", "strict": true } }';
    const pkg0 = '{\n  "name": "worker",\n  "devDependencies": {\n    "typescript": "^5.6.3"\n  }\n}\n';
    const pkg1 = pkg0.replace('"typescript": "^5.6.3"', '"@types/node": "^26.6.11",\n    "typescript": "^5.6.3"');
    const before = new Map<string, string | null>([['package.json', pkg0], ['package-lock.json', runFile('ts3-package-lock.1.json')], ['lib/env.js', null], ['lib/env.d.ts', null], ['tsconfig.json', tsconfig]]);
    const after = new Map<string, string | null>([['package.json', pkg1], ['package-lock.json', runFile('ts3-package-lock.2.json')], ['lib/env.js', 'exports.port = 1;\n'], ['lib/env.d.ts', 'export declare const port: number;\n'], ['tsconfig.json', tsconfig]]);
    const masked = episodeMaterial({ tracked, before, after, domain: 'terminal:npm' }, { scope: 'workspace', workspace: 'w' }, 5000);
    const { episode, lesson } = episodeMemories(masked, { episode: 'ep1', lesson: 'l1' });
    assert.deepStrictEqual(episode.files, ['package.json']);
    assert.deepStrictEqual(lesson!.scope, ['**']);
    assert.strictEqual(lesson!.fixApproach, 'Ran `npm install --save-dev @types/node`.');
    assert.ok(!/lib\/|package-lock/.test(JSON.stringify([lesson!.fixApproach, lesson!.change ?? '', lesson!.commands])));
    const lockStep = episode.steps.find(s => s.action === 'edit package-lock.json');
    assert.match(lockStep?.detail ?? '', /^package-lock\.json: \+@types\/node@[\d.]+, \+undici-types@[\d.]+$/);
    assert.match(episode.summary, /changed package\.json \(\+1 −0\), package-lock\.json: \+@types\/node@/);
  });
});
