// Claude Code hook payloads (the documented shapes) → episodes and lessons, through `engram hook claude-code`
// as Claude Code runs it: one process per payload on stdin. The command outputs and file texts are the
// real ones of the jest corpus trace (test/fixtures/traces/jest-cart-total-tax.jsonl).
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { buildCli, buildHook, repoRoot } from './buildCli';
import { claudeHookEvents, projectRelative } from '../../src/core/capture/claudeCode';
import { connectHooks, disconnectHooks } from '../../src/mcp/connect';

type Ev = { type: string; file?: string; text?: string; command?: string; exitCode?: number; output?: string };

describe('Claude Code hooks', function () {
  this.timeout(120_000);
  let cli: string;
  before(async () => { cli = await buildCli('engram-hook-cli-'); });

  const trace = () => fs.readFileSync(path.join(repoRoot(), 'test/fixtures/traces/jest-cart-total-tax.jsonl'), 'utf8').trim().split('\n').map(l => JSON.parse(l) as Ev);

  /**
   * A project with src/cart.js and a store, from the real jest trace: its failing and passing `npm test`
   * outputs, the file before and after the fix, the changed line, the lesson text that fix should get,
   * and `hook` (one `engram hook claude-code` call; a hook prints nothing on stdout).
   */
  function jestSession(prefix: string, sessionId: string, run: string[] = [cli]) {
    const evs = trace();
    const failing = evs.find(e => e.type === 'command' && e.exitCode === 1)!;
    const passing = evs.find(e => e.type === 'command' && e.exitCode === 0)!;
    const before = evs.find(e => e.type === 'open' && e.file === 'src/cart.js')!.text!;
    const after = evs.find(e => e.type === 'change' && e.file === 'src/cart.js')!.text!;
    const project = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    const store = path.join(project, '.store');
    fs.mkdirSync(path.join(project, 'src'));
    const cart = path.join(project, 'src', 'cart.js');
    // The Edit's old/new strings: the changed line, as Claude Code's Edit tool sends them.
    const oldLine = before.split('\n').find(l => !after.includes(l))!;
    const newLine = after.split('\n').find(l => !before.includes(l))!;
    const expectedFix = `Changed ${'`'}${oldLine.trim()}${'`'} to ${'`'}${newLine.trim()}${'`'} in src/cart.js (line ${after.split('\n').indexOf(newLine) + 1}).`;
    const hook = (payload: object) => {
      const r = spawnSync(process.execPath, [...run, '--store', store, 'hook', 'claude-code'], { input: JSON.stringify(payload), encoding: 'utf8', cwd: project });
      assert.strictEqual(r.status, 0, r.stderr);
      assert.strictEqual(r.stdout, '', 'a hook prints nothing on stdout (Claude Code would show it)');
      return r.stderr;
    };
    const base = { session_id: sessionId, transcript_path: '/tmp/t.jsonl', cwd: project };
    return { failing, passing, before, after, project, store, cart, oldLine, newLine, expectedFix, hook, base };
  }

  it('a failing npm test, an Edit, a passing npm test and SessionEnd become one success episode whose lesson names the change', () => {
    const { failing, passing, after, store, cart, oldLine, newLine, expectedFix, hook, base } = jestSession('engram-hook-project-', 'sess-1');
    hook({ ...base, hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'npm test', description: 'Run tests' }, error: `Exit code 1\n${failing.output}` });
    fs.writeFileSync(cart, after);
    hook({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: cart, old_string: oldLine, new_string: newLine }, tool_response: { filePath: cart } });
    hook({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: passing.output, stderr: '', interrupted: false, isImage: false } });
    const sessionFile = path.join(store, 'agent-sessions', 'sess-1.jsonl');
    assert.strictEqual(fs.statSync(sessionFile).mode & 0o777, 0o600);
    const said = hook({ ...base, hook_event_name: 'SessionEnd', reason: 'exit' });
    assert.match(said, /1 episode\(s\), 1 lesson\(s\) stored/);
    assert.ok(!fs.existsSync(sessionFile), 'the session file is removed once stored');

    const shown = spawnSync(process.execPath, [cli, '--store', store, 'recall', 'expect(received).toBe(expected) cart total includes tax', '--json'], { encoding: 'utf8' });
    const lesson = (JSON.parse(shown.stdout) as { results: { kind: string; fixApproach?: string; rootCause?: string }[] }).results.find(r => r.kind === 'lesson');
    assert.ok(lesson, shown.stdout + shown.stderr);
    assert.strictEqual(lesson.fixApproach, expectedFix);
    assert.match(lesson.rootCause ?? '', /`npm test` failed with .*cart total includes tax/);
  });

  it('a Write over an existing file is diffed (PreToolUse keeps the before-text); Stop stores what ended, SessionEnd does not store it again', () => {
    const { failing, passing, before, after, store, cart, expectedFix, hook, base } = jestSession('engram-hook-write-', 'sess-w');
    fs.writeFileSync(cart, before);
    hook({ ...base, hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'npm test' }, error: `Exit code 1\n${failing.output}` });
    hook({ ...base, hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: cart, content: after } });
    fs.writeFileSync(cart, after);
    hook({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: cart, content: after }, tool_response: { type: 'update', filePath: cart } });
    hook({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: passing.output, stderr: '', interrupted: false } });
    const sessionFile = path.join(store, 'agent-sessions', 'sess-w.jsonl');
    assert.ok(!fs.readFileSync(sessionFile, 'utf8').includes('"type":"disk","file":"src/cart.js","text":null'));
    assert.match(hook({ ...base, hook_event_name: 'Stop', stop_hook_active: false }), /1 episode\(s\), 1 lesson\(s\) stored \(the session goes on\)/);
    assert.ok(fs.existsSync(sessionFile), 'the session goes on after Stop');
    assert.strictEqual(fs.statSync(path.join(store, 'agent-sessions', 'sess-w.stored')).mode & 0o777, 0o600);
    assert.match(hook({ ...base, hook_event_name: 'Stop', stop_hook_active: false }), /0 episode\(s\), 0 lesson\(s\) stored/);
    assert.match(hook({ ...base, hook_event_name: 'SessionEnd', reason: 'exit' }), /0 episode\(s\), 0 lesson\(s\) stored/);
    assert.deepStrictEqual(fs.readdirSync(path.join(store, 'agent-sessions')), [], 'both session files are removed at the end');

    const all = spawnSync(process.execPath, [cli, '--store', store, 'export'], { encoding: 'utf8' }).stdout.trim().split('\n').map(l => JSON.parse(l) as { kind: string; fixApproach?: string });
    assert.deepStrictEqual(all.map(m => m.kind).sort(), ['episode', 'lesson'], 'one episode and one lesson, not two of each');
    assert.strictEqual(all.find(m => m.kind === 'lesson')!.fixApproach, expectedFix);
  });

  // Issue 18 defect 6 / issue 17 item 10: an agent verifies with another command line than the one that failed.
  for (const [fail, pass] of [['npm test', 'npx jest src/cart.test.js'], ['npx jest', 'npm test'], ['npm test -- cart', 'npm test']]) {
    it(`a failing \`${fail}\` delivered without an exit code, an Edit, then a passing \`${pass}\`: one success episode with the change`, () => {
      const { failing, passing, after, store, cart, oldLine, newLine, expectedFix, hook, base } = jestSession('engram-hook-other-', 'sess-o');
      // PostToolUse, not PostToolUseFailure, and no exit code: only the output says it failed.
      hook({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: fail }, tool_response: { stdout: '', stderr: failing.output, interrupted: false } });
      fs.writeFileSync(cart, after);
      hook({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: cart, old_string: oldLine, new_string: newLine }, tool_response: { filePath: cart } });
      hook({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: pass }, tool_response: { stdout: passing.output, stderr: '', interrupted: false } });
      assert.match(hook({ ...base, hook_event_name: 'SessionEnd', reason: 'exit' }), /1 episode\(s\), 1 lesson\(s\) stored/);
      const all = spawnSync(process.execPath, [cli, '--store', store, 'export'], { encoding: 'utf8' }).stdout.trim().split('\n').map(l => JSON.parse(l) as { kind: string; outcome?: string; fixApproach?: string; resolution?: string });
      const episode = all.find(m => m.kind === 'episode')!;
      assert.strictEqual(episode.outcome, 'success');
      assert.strictEqual(episode.resolution, `\`${pass}\` passed`);
      assert.strictEqual(all.find(m => m.kind === 'lesson')!.fixApproach, expectedFix);
    });
  }
  it('dist/hook.js, the hook\'s own small entry, appends without the store and stores at SessionEnd through cliStore.js beside it', async () => {
    const hookJs = await buildHook(cli);
    const bundle = fs.readFileSync(hookJs, 'utf8');
    // A design rule, not a timing: the store, the replay and vectra are not in the hook's bundle.
    for (const name of ['class MemoryStore', 'LocalIndex', 'class CapturePipeline']) assert.ok(!bundle.includes(name), `${name} is in hook.js`);
    assert.ok(bundle.length < 200_000, `hook.js is ${bundle.length} bytes`);
    const { failing, passing, after, store, cart, oldLine, newLine, expectedFix, hook, base } = jestSession('engram-hookjs-', 'sess-h', [hookJs]);
    hook({ ...base, hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command: 'npm test' }, error: `Exit code 1\n${failing.output}` });
    assert.ok(!fs.existsSync(path.join(store, 'events.jsonl')), 'an append opened the store');
    fs.writeFileSync(cart, after);
    hook({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: cart, old_string: oldLine, new_string: newLine }, tool_response: { filePath: cart } });
    hook({ ...base, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: passing.output, stderr: '' } });
    assert.match(hook({ ...base, hook_event_name: 'SessionEnd', reason: 'exit' }), /1 episode\(s\), 1 lesson\(s\) stored/);
    const lessons = spawnSync(process.execPath, [cli, '--store', store, 'export'], { encoding: 'utf8' }).stdout.trim().split('\n').map(l => JSON.parse(l) as { kind: string; fixApproach?: string }).filter(m => m.kind === 'lesson');
    assert.deepStrictEqual(lessons.map(l => l.fixApproach), [expectedFix]);
    // connect --hooks names hook.js when it sits beside the CLI.
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-hookjs-connect-'));
    connectHooks(project, cli);
    const settings = JSON.parse(fs.readFileSync(path.join(project, '.claude', 'settings.json'), 'utf8')) as { hooks: Record<string, { hooks: { command: string }[] }[]> };
    assert.strictEqual(settings.hooks.PostToolUse[0].hooks[0].command, `node ${JSON.stringify(hookJs)} claude-code`);
    assert.strictEqual(disconnectHooks(project).change, 'deleted-file');
  });

  it('maps the documented payloads; ignores what it does not know; refuses a session id that is not one', () => {
    const ctx = { project: '/p', now: 5, readText: () => 'a\nB\n' };
    assert.deepStrictEqual(claudeHookEvents({ session_id: 's', hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: '/p/x.ts', old_string: 'b', new_string: 'B' } }, ctx),
      { events: [{ t: 5, type: 'disk', file: 'x.ts', text: 'a\nB\n', before: 'a\nb\n' }], sessionId: 's', ends: false });
    const w = claudeHookEvents({ session_id: 's', hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: '/p/n.ts', content: 'a\nB\n' }, tool_response: { type: 'create' } }, ctx);
    assert.ok(!('error' in w) && w.events[0].type === 'disk' && w.events[0].before === null);
    const read = claudeHookEvents({ session_id: 's', hook_event_name: 'PostToolUse', tool_name: 'Read', tool_input: { file_path: '/p/x.ts' } }, ctx);
    assert.ok(!('error' in read) && read.events.length === 0);
    const outside = claudeHookEvents({ session_id: 's', hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: '/etc/passwd', content: 'x' } }, ctx);
    assert.ok(!('error' in outside) && outside.events.length === 0);
    assert.deepStrictEqual(claudeHookEvents({ session_id: '../../x', hook_event_name: 'Stop' }, ctx), { error: 'the hook input has no usable session_id' });
    assert.strictEqual(projectRelative('/p', '/p/../q/x'), undefined);
    assert.deepStrictEqual(claudeHookEvents({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: '/p/x.ts', content: 'new' } }, ctx),
      { events: [{ t: 5, type: 'open', file: 'x.ts', text: 'a\nB\n' }], sessionId: 's', ends: false });
    const none = claudeHookEvents({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Write', tool_input: { file_path: '/p/new.ts' } }, { ...ctx, readText: () => undefined });
    assert.ok(!('error' in none) && none.events.length === 0, 'a file that does not exist yet has no before-text');
    assert.deepStrictEqual(claudeHookEvents({ session_id: 's', hook_event_name: 'Stop' }, ctx), { events: [], sessionId: 's', ends: false, stop: true });
    // A Bash response without an exit code: failed when its output holds an error, passed otherwise.
    const bash = (stdout: string) => { const r = claudeHookEvents({ session_id: 's', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm run build' }, tool_response: { stdout, stderr: '' } }, ctx); return 'error' in r ? undefined : (r.events[0] as { exitCode?: number }).exitCode; };
    assert.strictEqual(bash("src/a.ts(1,7): error TS2322: Type 'string' is not assignable to type 'number'.\n"), 1);
    assert.strictEqual(bash('> tsc -p .\n'), 0);
  });

  it('connect --hooks writes the hooks beside the user\'s own, idempotently; disconnect removes only ours', () => {
    const project = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-hooks-connect-'));
    const settings = path.join(project, '.claude', 'settings.json');
    fs.mkdirSync(path.dirname(settings));
    const mine = { permissions: { allow: ['Bash(npm test)'] }, hooks: { PostToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'prettier --write' }] }] } };
    fs.writeFileSync(settings, JSON.stringify(mine));
    assert.strictEqual(connectHooks(project, '/x/engram/dist/cli.js').change, 'added');
    const after = JSON.parse(fs.readFileSync(settings, 'utf8'));
    assert.deepStrictEqual(after.permissions, mine.permissions);
    assert.deepStrictEqual(after.hooks.PostToolUse[0], mine.hooks.PostToolUse[0]);
    assert.strictEqual(after.hooks.PostToolUse[1].hooks[0].command, 'node "/x/engram/dist/cli.js" hook claude-code');
    assert.ok(after.hooks.SessionEnd && after.hooks.PostToolUseFailure && after.hooks.Stop);
    assert.deepStrictEqual(after.hooks.PreToolUse, [{ matcher: 'Edit|MultiEdit|Write', hooks: [{ type: 'command', command: 'node "/x/engram/dist/cli.js" hook claude-code' }] }]);
    assert.strictEqual(connectHooks(project, '/x/engram/dist/cli.js').change, 'unchanged');
    assert.strictEqual(disconnectHooks(project).change, 'removed');
    assert.deepStrictEqual(JSON.parse(fs.readFileSync(settings, 'utf8')), mine);
    fs.writeFileSync(settings, '{ // comment\n}');
    assert.throws(() => connectHooks(project, '/x/cli.js'), /not plain JSON/);
  });
});
