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
    t.saved('a.ts', 6050);
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

  it('a command failing with a different error family: what ran in between resolved the first episode, which links to the next', () => {
    // Issue 17: the first episode used to end `partial` ("did not fix it") although its error was gone.
    const t = tracker();
    t.commandEnded({ id: 'r1', line: 'npm run build', exitCode: 127, error: err('shell:command-not-found:x', 'shell:command-not-found', 'sh: 1: tsc: not found') }, 0);
    t.commandEnded({ id: 'i1', line: 'npm install --save-dev typescript', exitCode: 0 }, 500);
    const changedTo = err('tsc:TS2322:y', 'tsc:type', "src/config.ts(11,3): error TS2322: Type 'string' is not assignable to type 'number'.");
    const fx = t.commandEnded({ id: 'r2', line: 'npm run build', exitCode: 2, error: changedTo }, 1000);
    assert.deepStrictEqual(fx.map(e => e.type), ['ended', 'opened']);
    const [old] = ended(fx);
    const [fresh] = opened(fx);
    assert.strictEqual(old.outcome, 'success');
    assert.strictEqual(old.resolution, `the error changed to: ${changedTo.message}`);
    assert.deepStrictEqual(old.changedTo, changedTo);
    assert.strictEqual(old.nextEpisodeId, fresh.id);
    assert.strictEqual(fresh.error?.family, 'tsc:type');
    assert.deepStrictEqual(old.steps.map(s => [s.action, s.wasEffective]), [
      ['run npm run build', false],
      ['run npm install --save-dev typescript', undefined],
      // Exit 2 is never shown as a success, even though the error it printed is a new one.
      ['run npm run build', false],
    ]);
    assert.deepStrictEqual(t.open().map(e => e.id), [fresh.id]);
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
    // `ls` ran in between but is not part of the attempt (issue 17: unrelated commands are not its steps).
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

describe('EpisodeTracker: typing is not an error (issue 17)', () => {
  // What the TS server reported while `port: Number(process.env.PORT ?? 8080),` was typed over
  // `port: process.env.PORT ?? '8080',` in the demo: a different half-typed error after most keys.
  const nu: ErrorInfo = { key: "tsc:TS2304:cannot find name <str>", family: 'tsc:name', message: "Cannot find name 'Nu'.", tool: 'tsc', code: 'TS2304', line: 10 };
  const comma: ErrorInfo = { key: "tsc:TS1005:<str> expected", family: 'tsc:syntax', message: "',' expected.", tool: 'tsc', code: 'TS1005', line: 10 };

  const paren: ErrorInfo = { key: "tsc:TS1005:<str> expected", family: 'tsc:syntax', message: "')' expected.", tool: 'tsc', code: 'TS1005', line: 10 };

  /**
   * One keystroke every `perKey` ms, with a longer pause now and then, as a person types. The language
   * server answers every third key, `lagMs` late: first the half-typed name, then for most of the line
   * the same "')' expected." (inside `Number(` until the `)`), for far longer than the threshold.
   */
  function typeLine(t: EpisodeTracker, file: string, keys: number, perKey: number, pauseEvery: number, pauseMs: number, start: number, lagMs = 0): { effects: TrackerEffect[]; end: number } {
    const effects: TrackerEffect[] = [];
    let now = start;
    for (let k = 0; k < keys; k++) {
      now += perKey + (k > 0 && k % pauseEvery === 0 ? pauseMs : 0);
      effects.push(...t.tick(now), ...t.edited(file, now));
      if (k % 3 === 2) effects.push(...t.diagnostics(file, [k < 6 ? nu : k < keys - 2 ? paren : comma], now + lagMs, OPEN));
    }
    return { effects, end: now + lagMs };
  }

  it('errors of a line being typed slowly, for far longer than the threshold, never open an episode', () => {
    const t = tracker();
    // 40 keys at 350 ms with a 2.5 s pause every 8 keys: 24 s of typing, each error alive for seconds.
    const { effects, end } = typeLine(t, 'src/config.ts', 40, 350, 8, 2500, 0);
    assert.ok(end > 20_000);
    assert.deepStrictEqual(opened(effects), []);
    // The finished line is valid: the server clears it.
    const fx = t.diagnostics('src/config.ts', [], end + 300, OPEN);
    assert.deepStrictEqual(opened([...fx, ...t.tick(end + 60_000)]), []);
    assert.strictEqual(t.open().length, 0);
    assert.deepStrictEqual(t.pendingFiles(), []);
  });

  it('on a machine so slow that diagnostics arrive seconds after the keystroke, typing still opens nothing', () => {
    const t = tracker();
    const { effects, end } = typeLine(t, 'src/config.ts', 30, 300, 10, 3000, 0, 3500);
    // The last stale answer came at `end`; the clear comes 3.9 s after it, 7.4 s after the last key.
    const fx = [...t.tick(end + 3900), ...t.diagnostics('src/config.ts', [], end + 3900, OPEN)];
    assert.deepStrictEqual(opened([...effects, ...fx, ...t.tick(end + 60_000)]), []);
  });

  it('an error left when the typing stops counts once the file has been quiet for the threshold', () => {
    const t = tracker();
    const { end } = typeLine(t, 'src/config.ts', 10, 300, 100, 0, 0);
    // The timer's hint may be early (tick then looks again), never late.
    assert.ok(t.nextDeadline()! <= end + 4000, 'quiet since the last change of the file');
    assert.deepStrictEqual(opened(t.tick(end + 3999)), []);
    const [ep] = opened(t.tick(end + 4000));
    assert.ok(ep, 'the error that stayed is an episode');
    assert.strictEqual(ep.error?.key, paren.key, 'the error the last answer had');
  });

  it('a save counts the error after the settle time, unless the typing goes on', () => {
    const t = tracker();
    t.edited('a.ts', 0);
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 100, OPEN);
    t.saved('a.ts', 200);
    t.edited('a.ts', 300); // typing on: the save no longer says "this is the text"
    assert.deepStrictEqual(opened(t.tick(1500)), []);
    assert.deepStrictEqual(opened(t.tick(1999)), []);
    t.saved('a.ts', 2000);
    assert.ok(t.nextDeadline()! <= 3000, 'save + settle');
    assert.deepStrictEqual(opened(t.tick(2999)), []);
    assert.strictEqual(opened(t.tick(3000)).length, 1);
  });

  it('a fix is confirmed only once the typing settles; an error gone and back while typing is not a recurrence', () => {
    const t = tracker();
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 0, OPEN);
    const [ep] = opened(t.tick(4000));
    t.edited('a.ts', 5000);
    t.diagnostics('a.ts', [comma], 5100, OPEN); // half-typed fix: the TS2322 is gone for now
    t.edited('a.ts', 5400);
    assert.deepStrictEqual(t.diagnostics('a.ts', [err('tsc:TS2322:x')], 5500, OPEN).map(e => e.type).filter(x => x !== 'noise'), [], 'no recurrence while typing');
    t.edited('a.ts', 5800);
    t.diagnostics('a.ts', [comma], 5900, OPEN);
    for (let now = 6200; now <= 8000; now += 300) { assert.deepStrictEqual(ended(t.tick(now)), []); t.edited('a.ts', now); }
    t.diagnostics('a.ts', [], 8100, OPEN);
    assert.deepStrictEqual(ended(t.tick(11_900)), [], 'edit-idle time runs from the last edit, not from when the error left');
    const [done] = ended(t.tick(12_000));
    assert.strictEqual(done.id, ep.id);
    assert.strictEqual(done.outcome, 'success');
    assert.strictEqual(done.recurrences, 0);
  });

  it('a pause between keys longer than the settle time is not a fix; the save is', () => {
    // Live, at 200-400 ms a key: `Number(process.env.PORT ?? 80` cleared TS2322 (the rest of the line not
    // typed yet) and a 1.5 s pause ended the episode with that half line as its fix.
    const t = tracker();
    t.diagnostics('a.ts', [err('tsc:TS2322:x')], 0, OPEN);
    const [ep] = opened(t.tick(4000));
    t.edited('a.ts', 5000);
    t.diagnostics('a.ts', [comma], 5100, OPEN); // the half-typed line: TS2322 gone, a syntax error instead
    assert.deepStrictEqual(ended(t.tick(7000)), [], 'a 1.9 s pause while typing');
    t.edited('a.ts', 7000); // the rest of the line
    t.diagnostics('a.ts', [], 7100, OPEN);
    assert.deepStrictEqual(ended(t.tick(8000)), [], 'typed, not saved yet');
    // Saved: the settle time (1 s here) since the last change has passed, so the save confirms it.
    const [done] = ended(t.saved('a.ts', 8200));
    assert.strictEqual(done.id, ep.id);
    assert.strictEqual(done.outcome, 'success');
  });
});

describe('EpisodeTracker: clean episodes (issue 17)', () => {
  const notFound = err('shell:command-not-found:x', 'shell:command-not-found', 'sh: 1: tsc: not found');

  it('read-only commands never open an episode, however they fail', () => {
    const t = tracker();
    for (const line of ['echo $PATH; which tsc', 'which tsc', 'ls dist', 'cat missing.txt', 'pwd', 'env | grep NODE', 'type tsc', 'command -v tsc', 'git status', 'git log -1', 'git diff --exit-code', 'grep -r TODO src']) {
      assert.deepStrictEqual(opened(t.commandEnded({ id: line, line, exitCode: 1, error: notFound }, 0)), [], line);
    }
    assert.strictEqual(opened(t.commandEnded({ id: 'b', line: 'npm run build', exitCode: 127, error: notFound }, 0)).length, 1);
    // Writing through a redirection is not read-only.
    assert.strictEqual(opened(t.commandEnded({ id: 'w', line: 'echo x > /root/out.txt', exitCode: 1, error: notFound }, 0)).length, 1);
  });

  it('unrelated commands are neither steps of a terminal attempt nor keep it alive; it closes after the idle gap', () => {
    const t = tracker({ idleGapMs: 10 * 60_000 });
    const [ep] = opened(t.commandEnded({ id: 'b', line: 'npm run build', exitCode: 127, error: notFound, output: 'sh: 1: tsc: not found' }, 0));
    assert.strictEqual(t.nextDeadline(), 10 * 60_000 + 1);
    for (let i = 1; i <= 32; i++) t.commandEnded({ id: `u${i}`, line: i % 2 ? 'git commit -m wip' : 'docker ps', exitCode: 0 }, i * 15_000);
    assert.deepStrictEqual(ep.steps.map(s => s.action), ['run npm run build']);
    assert.strictEqual(ep.lastActivity, 0);
    const [done] = ended(t.tick(10 * 60_000 + 1));
    assert.strictEqual(done.id, ep.id);
    assert.strictEqual(done.outcome, 'abandoned');
    assert.strictEqual(done.resolution, 'idle gap');
  });

  it('related commands are steps and keep the attempt going: installs, the same work, commands naming its files', () => {
    const t = tracker({ idleGapMs: 60_000 });
    const [ep] = opened(t.commandEnded({ id: 'c', line: 'node scripts/check.js', exitCode: 1, error: err('node:ENOENT:x', 'node:fs', "ENOENT: no such file or directory, open 'config/settings.json'"), output: "Error: ENOENT: no such file or directory, open 'config/settings.json'" }, 0));
    t.commandEnded({ id: 'm', line: 'mkdir -p config', exitCode: 0 }, 30_000);
    t.commandEnded({ id: 'v', line: 'node scripts/check.js --verbose', exitCode: 1, error: err('node:ENOENT:x', 'node:fs') }, 50_000);
    t.commandEnded({ id: 's', line: 'cat config/settings.json', exitCode: 1 }, 80_000);
    t.commandEnded({ id: 'e', line: "echo '{\"port\": 8080}' > config/settings.json", exitCode: 0 }, 100_000);
    assert.deepStrictEqual(ep.steps.map(s => s.action), [
      'run node scripts/check.js', 'run mkdir -p config', 'run node scripts/check.js --verbose', 'run cat config/settings.json', `run echo '{"port": 8080}' > config/settings.json`,
    ]);
    assert.deepStrictEqual(ended(t.tick(150_000)), [], 'active 50 s ago');
  });
});

describe('EpisodeTracker: agent sessions run the same tests by different command lines (issue 17, 18)', () => {
  const failure = (message: string) => err('jest:assert:x', 'test:assertion', message);

  it('a pass of a different command that runs the same tests closes the episode', () => {
    for (const [fail, pass] of [
      ['npm test', 'npx jest src/cart.test.js'],
      ['npx jest src/cart.test.js', 'npm test'],
      ['npm test', 'npm test -- cart'],
      ['npm run test', 'npx vitest run src/cart.test.js'],
      ['vitest run', 'npm test'],
      ['pytest', 'python -m pytest tests/test_cart.py'],
      ['python3 -m pytest tests/test_cart.py::test_total', 'pytest -k test_total'],
    ]) {
      const t = tracker();
      const output = 'FAIL src/cart.test.js\n  ✕ cart total (5 ms)\ntests/test_cart.py::test_total FAILED';
      const [ep] = opened(t.commandEnded({ id: 'f', line: fail, exitCode: 1, error: failure('expect(received).toBe(expected)'), output }, 0));
      t.edited('src/cart.js', 1000);
      const [done] = ended(t.commandEnded({ id: 'p', line: pass, exitCode: 0 }, 2000));
      assert.ok(done, `${fail} then ${pass}`);
      assert.strictEqual(done.id, ep.id);
      assert.strictEqual(done.outcome, 'success');
      assert.strictEqual(done.fixedBy?.line, pass);
      assert.strictEqual(done.resolution, `\`${pass}\` passed`);
    }
  });

  it('a pass limited to other tests, or of another suite, does not close it', () => {
    for (const pass of ['npx jest src/other.test.js', 'pytest', 'npm run lint', 'cargo test']) {
      const t = tracker();
      t.commandEnded({ id: 'f', line: 'npm test', exitCode: 1, error: failure('boom'), output: 'FAIL src/cart.test.js' }, 0);
      assert.deepStrictEqual(ended(t.commandEnded({ id: 'p', line: pass, exitCode: 0 }, 2000)), [], pass);
      assert.strictEqual(t.open().length, 1);
    }
  });

  it('a failure of the same kind by another command line is a recurrence of the same episode, not a second one', () => {
    const t = tracker();
    const [ep] = opened(t.commandEnded({ id: 'f', line: 'npm test', exitCode: 1, error: failure('boom'), output: 'FAIL src/cart.test.js' }, 0));
    const fx = t.commandEnded({ id: 'g', line: 'npx jest src/cart.test.js', exitCode: 1, error: failure('boom') }, 1000);
    assert.deepStrictEqual(fx.map(e => e.type), ['recurred']);
    assert.deepStrictEqual(t.open().map(e => e.id), [ep.id]);
    assert.strictEqual(ep.recurrences, 1);
  });
});
