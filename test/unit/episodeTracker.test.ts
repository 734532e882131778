import * as assert from 'assert';
import { normaliseCommand } from '../../src/core/capture/commandLines';
import { EpisodeTracker, type ErrorInfo, type TrackerEffect, type TrackedEpisode } from '../../src/core/episodeTracker';

const OPEN = { fileOpen: true, serverAlive: true };

function err(key: string, family = 'tsc:type', message = `message for ${key}`): ErrorInfo {
  return { key, family, message, tool: 'tsc', code: key.split(':')[1], line: 2 };
}

function tracker(over: Partial<ConstructorParameters<typeof EpisodeTracker>[0]> = {}): EpisodeTracker {
  let n = 0;
  return new EpisodeTracker({ noiseThresholdMs: 4000, idleGapMs: 30 * 60_000, settleMs: 1000, newId: () => `ep${++n}`, ...over });
}

function ended(effects: TrackerEffect[]): TrackedEpisode[] {
  return effects.filter(e => e.type === 'ended').map(e => (e as { episode: TrackedEpisode }).episode);
}
function opened(effects: TrackerEffect[]): TrackedEpisode[] {
  return effects.filter(e => e.type === 'opened').map(e => (e as { episode: TrackedEpisode }).episode);
}

describe('episodeTracker', () => {
  it('an error fixed within the noise threshold is noise, not an episode', () => {
    const t = tracker();
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 0, OPEN);
    assert.deepStrictEqual(t.pendingFiles(), ['a.ts']);
    const fx = t.diagnostics('a.ts', [], 2500, OPEN);
    assert.deepStrictEqual(fx.map(e => e.type), ['noise']);
    assert.deepStrictEqual(t.pendingFiles(), []);
    assert.deepStrictEqual(t.tick(10_000), []);
    assert.strictEqual(t.open().length, 0);
    assert.strictEqual(t.nextDeadline(), undefined);
  });

  it('an error that persists past the threshold opens an episode that starts when it was first seen', () => {
    const t = tracker();
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 1000, OPEN);
    assert.strictEqual(t.nextDeadline(), 5000);
    assert.deepStrictEqual(t.tick(4999), []);
    const fx = t.tick(5000);
    const [ep] = opened(fx);
    assert.ok(ep);
    assert.strictEqual(ep.file, 'a.ts');
    assert.strictEqual(ep.error?.key, 'tsc:TS2322:x');
    assert.strictEqual(ep.startedAt, 1000);
    assert.deepStrictEqual(t.open().map(e => e.id), [ep.id]);
    assert.deepStrictEqual(t.pendingFiles(), [], 'an episode now, no longer pending');
  });

  it('an error that survives a save opens before the threshold', () => {
    const t = tracker();
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 0, OPEN);
    t.saved('a.ts', 500);
    assert.strictEqual(t.nextDeadline(), 1500); // save + settle, earlier than 4000
    assert.strictEqual(opened(t.tick(1500)).length, 1);
  });

  it('an error gone right after a save is still noise', () => {
    const t = tracker();
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 0, OPEN);
    t.saved('a.ts', 500);
    t.diagnostics('a.ts', [], 900, OPEN);
    assert.deepStrictEqual(t.tick(5000), []);
    assert.strictEqual(t.open().length, 0);
  });

  it('success when the signature disappears and stays gone with the file open and the server alive', () => {
    const t = tracker();
    t.diagnostics('a.ts', [err('tsc:TS2322:x'), err('tsc:TS7006:y')], 0, OPEN);
    t.tick(4000);
    assert.strictEqual(t.open().length, 2);
    t.edited('a.ts', 6000);
    // Only the TS2322 goes away; TS7006 stays.
    assert.deepStrictEqual(ended(t.diagnostics('a.ts', [err('tsc:TS7006:y')], 6100, OPEN)), []);
    const [done] = ended(t.tick(7100));
    assert.strictEqual(done.outcome, 'success');
    assert.strictEqual(done.error?.key, 'tsc:TS2322:x');
    assert.strictEqual(done.endedAt, 7100);
    assert.deepStrictEqual(t.open().map(e => e.error?.key), ['tsc:TS7006:y']);
  });

  it('an error that comes back before the fix is confirmed is a recurrence, not a success', () => {
    const t = tracker();
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 0, OPEN);
    t.tick(4000);
    t.diagnostics('a.ts', [], 5000, OPEN);
    const fx = t.diagnostics('a.ts', [err('tsc:TS2322:x')], 5500, OPEN);
    assert.deepStrictEqual(fx.map(e => e.type), ['recurred']);
    assert.deepStrictEqual(ended(t.tick(9000)), []);
    assert.strictEqual(t.open()[0].recurrences, 1);
  });

  it('diagnostics vanishing because the language server stopped do not count as a fix', () => {
    const t = tracker();
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 0, OPEN);
    t.tick(4000);
    t.diagnostics('a.ts', [], 5000, { fileOpen: true, serverAlive: false });
    assert.deepStrictEqual(t.tick(60_000), []);
    assert.strictEqual(t.open().length, 1);
  });

  it('closing the file abandons its episode; a confirmed-pending fix before close is a success', () => {
    const t = tracker();
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 0, OPEN);
    t.diagnostics('b.ts', [err('tsc:TS2304:z')], 0, OPEN);
    t.tick(4000);
    const [a] = ended(t.closed('a.ts', 5000));
    assert.strictEqual(a.outcome, 'abandoned');
    assert.strictEqual(a.resolution, 'file closed');
    t.diagnostics('b.ts', [], 6000, OPEN);
    const [b] = ended(t.closed('b.ts', 6200));
    assert.strictEqual(b.outcome, 'success');
  });

  it('diagnostics cleared for a file that is no longer open end the episode as abandoned', () => {
    const t = tracker();
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 0, OPEN);
    t.tick(4000);
    const [a] = ended(t.diagnostics('a.ts', [], 5000, { fileOpen: false, serverAlive: true }));
    assert.strictEqual(a.outcome, 'abandoned');
  });

  it('a deleted file abandons its episode and is a touched file for the others', () => {
    const t = tracker();
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 0, OPEN);
    t.tick(4000);
    t.commandEnded({ id: 'r1', line: 'bash scripts/fail.sh', exitCode: 1 }, 4000);
    assert.strictEqual(ended(t.deleted('a.ts', 5000))[0].resolution, 'file deleted');
    const [cmd] = t.open();
    assert.deepStrictEqual(cmd.files, ['a.ts']);
    assert.deepStrictEqual(cmd.steps.map(s => s.action), ['run bash scripts/fail.sh', 'delete a.ts']);
  });

  it('several episodes open at once, for different files and commands', () => {
    const t = tracker();
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 0, OPEN);
    t.diagnostics('b.ts', [err('tsc:TS2322:x')], 100, OPEN);
    t.tick(5000);
    t.commandEnded({ id: 'run1', line: 'npm test', exitCode: 1, error: err('node:Error:boom', 'node:error') }, 5000);
    const open = t.open();
    assert.strictEqual(open.length, 3);
    assert.deepStrictEqual(open.map(e => e.file ?? e.command?.line).sort(), ['a.ts', 'b.ts', 'npm test']);
  });

  it('a long idle gap ends the old episode and the persisting error starts a new one', () => {
    const t = tracker({ idleGapMs: 60_000 });
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 0, OPEN);
    t.tick(4000);
    const first = t.open()[0];
    t.edited('a.ts', 10_000);
    const fx = t.edited('a.ts', 100_000);
    const [old] = ended(fx);
    const [fresh] = opened(fx);
    assert.strictEqual(old.id, first.id);
    assert.strictEqual(old.outcome, 'abandoned');
    assert.strictEqual(old.resolution, 'idle gap');
    assert.notStrictEqual(fresh.id, first.id);
    assert.strictEqual(fresh.startedAt, 100_000);
    assert.strictEqual(fresh.error?.key, 'tsc:TS2322:x');
  });

  it('a command failing again with a different error family closes the first episode and opens another', () => {
    const t = tracker();
    t.commandEnded({ id: 'r1', line: 'node check.js', exitCode: 1, error: err('node:ENOENT:x', 'node:file-not-found') }, 0);
    const fx = t.commandEnded({ id: 'r2', line: 'node check.js', exitCode: 1, error: err('node:TypeError:y', 'node:type') }, 1000);
    const [old] = ended(fx);
    const [fresh] = opened(fx);
    assert.strictEqual(old.outcome, 'partial');
    assert.strictEqual(fresh.error?.family, 'node:type');
  });

  it('the same error family failing again is a recurrence of the same episode', () => {
    const t = tracker();
    t.commandEnded({ id: 'r1', line: 'node check.js', exitCode: 1, error: err('node:Error:a', 'node:error') }, 0);
    const fx = t.commandEnded({ id: 'r2', line: 'node check.js', exitCode: 2, error: err('node:Error:a', 'node:error') }, 1000);
    assert.deepStrictEqual(fx.map(e => e.type), ['recurred']);
    assert.strictEqual(t.open().length, 1);
    assert.deepStrictEqual(t.open()[0].sourceIds, ['r1', 'r2']);
  });

  it('a terminal failure pairs with the same normalised command succeeding later, with the edits between', () => {
    const t = tracker();
    t.commandEnded({ id: 'r1', line: 'FOO=1  ./scripts/check.js --fast ', cwd: '/w', exitCode: 1, error: err('node:Error:missing', 'node:error') }, 0);
    t.edited('scripts/check.js', 1000);
    t.edited('scripts/check.js', 1200);
    t.edited('config.json', 1300);
    assert.deepStrictEqual(ended(t.commandEnded({ id: 'other', line: 'ls', exitCode: 0 }, 1400)), []);
    const [done] = ended(t.commandEnded({ id: 'r2', line: 'scripts/check.js --fast', exitCode: 0 }, 2000));
    assert.ok(done);
    assert.strictEqual(done.outcome, 'success');
    assert.strictEqual(done.command?.line, 'FOO=1  ./scripts/check.js --fast ');
    assert.strictEqual(done.command?.cwd, '/w');
    assert.strictEqual(done.fixedBy?.id, 'r2');
    assert.deepStrictEqual(done.files, ['scripts/check.js', 'config.json']);
    assert.deepStrictEqual(done.steps.map(s => [s.action, s.result]), [
      ['run FOO=1  ./scripts/check.js --fast ', 'exit 1: message for node:Error:missing'],
      ['edit scripts/check.js', '2 changes'],
      ['edit config.json', '1 change'],
      ['run ls', 'passed'],
      ['run scripts/check.js --fast', 'passed'],
    ]);
    assert.strictEqual(t.open().length, 0);
  });

  it('interrupted commands and unknown exit codes open nothing', () => {
    const t = tracker();
    t.commandEnded({ id: 'r1', line: 'npm run watch', exitCode: 130 }, 0);
    t.commandEnded({ id: 'r2', line: 'make', exitCode: undefined }, 0);
    assert.strictEqual(t.open().length, 0);
  });

  it('the user can end an episode as failure with a note', () => {
    const t = tracker();
    t.commandEnded({ id: 'r1', line: 'npm test', exitCode: 1 }, 0);
    const id = t.open()[0].id;
    const [done] = ended(t.end(id, 'failure', 500, 'flaky network'));
    assert.strictEqual(done.outcome, 'failure');
    assert.strictEqual(done.note, 'flaky network');
    assert.deepStrictEqual(t.end(id, 'success', 600), []);
  });

  it('steps are bounded and keep the trigger', () => {
    const t = tracker({ maxSteps: 5 });
    t.commandEnded({ id: 'r1', line: 'npm test', exitCode: 1 }, 0);
    for (let i = 0; i < 20; i++) t.edited(`f${i}.ts`, 10 + i);
    const ep = t.open()[0];
    assert.strictEqual(ep.steps.length, 5);
    assert.strictEqual(ep.steps[0].action, 'run npm test');
    assert.strictEqual(ep.steps[4].action, 'edit f19.ts');
  });

  it('topic change abandons everything open and forgets pending errors', () => {
    const t = tracker();
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 0, OPEN);
    t.tick(4000);
    t.diagnostics('b.ts', [err('tsc:TS2322:x')], 4000, OPEN);
    const fx = t.topicChange(5000, 'workspace folders changed');
    assert.deepStrictEqual(ended(fx).map(e => e.outcome), ['abandoned']);
    assert.deepStrictEqual(t.tick(20_000), []);
  });

  it('normaliseCommand ignores whitespace, env prefixes and ./', () => {
    assert.strictEqual(normaliseCommand('  CI=1 ./node_modules/.bin/tsc   -p . ;'), 'node_modules/.bin/tsc -p .');
    assert.strictEqual(normaliseCommand('node scripts/check.js'), normaliseCommand('node  ./scripts/check.js'));
    assert.notStrictEqual(normaliseCommand('npm test'), normaliseCommand('npm run build'));
  });
});

describe('EpisodeTracker: restored after a window reload', () => {
  const err: ErrorInfo = { key: 'tsc:TS2322:x', family: 'tsc:type', message: "Type 'number' is not assignable to type 'string'.", tool: 'tsc', code: 'TS2322', line: 2 };
  const ctx = { fileOpen: true, serverAlive: true };

  it('a restored diagnostics episode ends as success when its error is seen gone, and stays open while it is there', () => {
    const first = new EpisodeTracker({ noiseThresholdMs: 1000, settleMs: 500, newId: () => 'ep1' });
    first.diagnostics('src/a.ts', [err], 0, ctx);
    const [opened] = first.tick(1000);
    assert.ok(opened.type === 'opened');
    const saved = JSON.parse(JSON.stringify(first.open())) as TrackedEpisode[];

    const next = new EpisodeTracker({ noiseThresholdMs: 1000, settleMs: 500, newId: () => 'other' });
    next.restore(saved, 50_000);
    assert.deepStrictEqual(next.open().map(e => [e.id, e.restored]), [['ep1', true]]);
    assert.deepStrictEqual(next.diagnostics('src/a.ts', [err], 50_100, ctx).filter(e => e.type !== 'noise'), []);
    next.diagnostics('src/a.ts', [], 51_000, ctx);
    const ended = next.tick(51_600).find(e => e.type === 'ended');
    assert.ok(ended && ended.type === 'ended' && ended.episode.id === 'ep1' && ended.episode.outcome === 'success');
    // Restoring twice (two windows reading one file) does not duplicate it.
    next.restore(saved, 52_000);
    next.restore(saved, 52_000);
    assert.strictEqual(next.open().length, 1);
  });

  it('a restored terminal episode closes when its command passes', () => {
    const first = new EpisodeTracker({ newId: () => 't1' });
    first.commandEnded({ id: 'c1', line: 'npm test', exitCode: 1, error: { ...err, key: 'node:x', family: 'node:x' } }, 0);
    const next = new EpisodeTracker({ newId: () => 'other' });
    next.restore(JSON.parse(JSON.stringify(first.open())) as TrackedEpisode[], 10_000);
    const ended = next.commandEnded({ id: 'c2', line: 'npm test', exitCode: 0 }, 11_000).find(e => e.type === 'ended');
    assert.ok(ended && ended.type === 'ended' && ended.episode.id === 't1' && ended.episode.outcome === 'success');
  });
});

describe('EpisodeTracker: one error seen by the editor and by a terminal build', () => {
  const e0502: ErrorInfo = { key: 'rustc:E0502:cannot borrow <id> as mutable because it is also borrowed as immutable', family: 'rustc:borrow', message: 'cannot borrow `v` as mutable because it is also borrowed as immutable', tool: 'rustc', code: 'E0502', line: 3 };
  const ctx = { fileOpen: true, serverAlive: true };

  it('a build failing with the error the editor shows is a step of the editor episode, not a second episode', () => {
    const t = new EpisodeTracker({ noiseThresholdMs: 1000, settleMs: 500, newId: () => `ep${Math.random()}` });
    t.diagnostics('src/main.rs', [e0502], 0, ctx);
    const [opened] = t.tick(1000);
    assert.ok(opened.type === 'opened');
    const fx = t.commandEnded({ id: 'c1', line: 'cargo build', exitCode: 101, error: e0502 }, 2000);
    assert.deepStrictEqual(fx.filter(e => e.type === 'opened'), []);
    assert.strictEqual(t.open().length, 1);
    assert.ok(opened.episode.steps.some(s => s.action === 'run cargo build'));
  });

  it('an editor error matching an open build failure joins that episode', () => {
    const t = new EpisodeTracker({ noiseThresholdMs: 1000, settleMs: 500, newId: () => `ep${Math.random()}` });
    const [term] = t.commandEnded({ id: 'c1', line: 'cargo build', exitCode: 101, error: e0502 }, 0).filter(e => e.type === 'opened');
    assert.ok(term && term.type === 'opened');
    t.diagnostics('src/main.rs', [e0502], 100, ctx);
    assert.deepStrictEqual(t.tick(2000).filter(e => e.type === 'opened'), []);
    assert.strictEqual(t.open().length, 1);
    assert.ok(term.episode.files.includes('src/main.rs'));
  });
});
