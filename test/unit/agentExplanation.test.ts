// Which stored lessons are an outside agent's explanation that the window folds into its episode: the
// ones `engram mcp` remember writes (authored "agent", from chat, not Copilot's tool), while recent.
import * as assert from 'assert';
import { EXPLAIN_WINDOW_MS, explanationIn } from '../../src/core/capture/agentExplanation';
import type { Lesson } from '../../src/core/types';
import { rememberTool, type ToolContext } from '../../src/mcp/tools';
import { newLesson } from '../../src/core/newMemory';

describe('agent explanations over MCP', () => {
  const now = 1_800_000_000_000;
  const lesson = (over: Partial<Lesson> = {}): Lesson => ({
    ...newLesson({ workspace: 'w', source: 'chat', agent: 'claude-code', now }, { errorText: "TypeError: Cannot read properties of undefined (reading 'id')", rootCause: 'the user was not loaded yet', fixApproach: 'await loadUser() first' }),
    author: 'agent', ...over,
  });

  it('an MCP remember is one; Copilot\'s own, captured, episode-bound or old lessons are not', () => {
    assert.deepStrictEqual(explanationIn(lesson(), now + 1000), {
      errorText: "TypeError: Cannot read properties of undefined (reading 'id')", rootCause: 'the user was not loaded yet', fixApproach: 'await loadUser() first',
    });
    const copilot = lesson();
    copilot.owner = { ...copilot.owner, agent: 'copilot' };
    assert.strictEqual(explanationIn(copilot, now), undefined);
    assert.strictEqual(explanationIn(lesson({ author: undefined }), now), undefined);
    assert.strictEqual(explanationIn(lesson({ source: 'captured' }), now), undefined);
    assert.strictEqual(explanationIn(lesson({ evidence: ['ep-1'] }), now), undefined);
    assert.strictEqual(explanationIn(lesson(), now + EXPLAIN_WINDOW_MS + 1), undefined);
    assert.strictEqual(explanationIn(undefined, now), undefined);
  });

  it('the MCP remember tool writes exactly such a lesson, and tells the agent what the window does with it', async () => {
    let recorded: Lesson | undefined;
    const ctx = {
      workspace: 'w', agent: () => 'codex', relative: (f: string) => f,
      store: async () => ({ record: async (m: Lesson) => { recorded = m; return m; } }),
    } as unknown as ToolContext;
    const said = await rememberTool(ctx, { kind: 'lesson', errorText: 'Error: ENOENT: no such file or directory, open \'.env\'', rootCause: 'the .env file is not committed', fixApproach: 'copy .env.example to .env' });
    assert.ok(recorded);
    assert.ok(explanationIn(recorded, recorded.createdAt), JSON.stringify(recorded));
    assert.strictEqual(recorded.owner.agent, 'codex');
    assert.match(said, /folds this explanation into that episode's lesson, which replaces les_\w+\.$/);
  });
});
