// A failed command's error when the terminal gave no output for it: VS Code's execution.read() can
// yield nothing for a quick re-run, which once turned a recurrence into a different error
// ("bash exited with code 1") and ended the open episode as partial (the integration test
// "memories shown during an episode get automatic outcomes" failed 3 of 5 runs on it).
import * as assert from 'assert';
import { CapturePipeline } from '../../src/core/capture/capturePipeline';
import { CommandErrors, errorFromOutput } from '../../src/core/capture/commandErrors';

// What test/fixtures/workspace/scripts/fail.sh prints while its marker exists.
const FAIL_OUTPUT = "error TS2304: Cannot find name 'missingThing'.\n";

describe('command errors: a re-run with no output', () => {
  it('is the error the same command printed before, when the exit code matches', () => {
    const errors = new CommandErrors();
    const first = errors.fromOutput(FAIL_OUTPUT, 1, 'bash scripts/fail.sh', '/w');
    assert.ok(first);
    assert.match(first.message, /Cannot find name 'missingThing'/);
    assert.deepStrictEqual(errors.fromOutput('', 1, 'bash scripts/fail.sh', '/w'), first);
    assert.deepStrictEqual(errors.fromOutput(' \n', 1, 'bash  scripts/fail.sh', '/w'), first, 'whitespace in the line or the output does not matter');
  });

  it('is not borrowed across a different exit code, command, folder, or a success in between', () => {
    const errors = new CommandErrors();
    const first = errors.fromOutput(FAIL_OUTPUT, 1, 'bash scripts/fail.sh', '/w')!;
    const bare = errorFromOutput('', 2, 'bash scripts/fail.sh')!;
    assert.strictEqual(errors.fromOutput('', 2, 'bash scripts/fail.sh', '/w')?.key, bare.key);
    assert.notStrictEqual(errors.fromOutput('', 1, 'bash scripts/other.sh', '/w')?.key, first.key);
    assert.notStrictEqual(errors.fromOutput('', 1, 'bash scripts/fail.sh', '/elsewhere')?.key, first.key);
    assert.strictEqual(errors.fromOutput('ok\n', 0, 'bash scripts/fail.sh', '/w'), undefined);
    assert.notStrictEqual(errors.fromOutput('', 1, 'bash scripts/fail.sh', '/w')?.key, first.key, 'after a success an empty failure says nothing about the old error');
  });

  it('keeps a bounded memory: the oldest command is forgotten first', () => {
    const errors = new CommandErrors();
    const first = errors.fromOutput('Error: first\n', 1, 'cmd 0')!;
    for (let i = 1; i <= 200; i++) errors.fromOutput(`Error: number ${i}\n`, 1, `cmd ${i}`);
    assert.notStrictEqual(errors.fromOutput('', 1, 'cmd 0')?.key, first.key, 'cmd 0 was the oldest of 201');
    assert.match(errors.fromOutput('', 1, 'cmd 200')!.message, /number 200/);
  });

  it('in a replayed session: fail, empty re-run, pass is one successful episode, not a partial one', () => {
    const p = new CapturePipeline({ noiseThresholdMs: 1000, settleMs: 500 });
    p.handle({ t: 0, type: 'command', command: 'bash scripts/fail.sh', cwd: '.', exitCode: 1, output: FAIL_OUTPUT });
    p.handle({ t: 2000, type: 'command', command: 'bash scripts/fail.sh', cwd: '.', exitCode: 1, output: '' });
    p.handle({ t: 4000, type: 'command', command: 'bash scripts/fail.sh', cwd: '.', exitCode: 0, output: '' });
    p.handle({ t: 9000, type: 'end' });
    assert.strictEqual(p.ended.length, 1, `episodes: ${p.ended.map(e => e.tracked.error?.message).join(' | ')}`);
    const [ep] = p.ended;
    assert.match(ep.tracked.error?.message ?? '', /Cannot find name 'missingThing'/);
    assert.strictEqual(ep.tracked.outcome, 'success');
  });
});
