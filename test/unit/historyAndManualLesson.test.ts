// Two things a person reads in the sidebar (issue 21): a history line names the folder, not its internal
// id, and a lesson recorded by hand claims no outcome it never saw.
import * as assert from 'assert';
import { historyText } from '../../src/core/history';
import { newLesson } from '../../src/core/newMemory';
import { workspaceIdOf, workspaceName } from '../../src/core/workspaceId';

describe('history lines and hand-recorded lessons', () => {
  it('a feedback line names the workspace by its folder', () => {
    const id = workspaceIdOf('file:///home/me/demo', 'demo');
    assert.match(id, /^demo#[0-9a-f]{16}$/);
    assert.strictEqual(historyText({ type: 'feedback', outcome: 'prevented', auto: true, workspace: id }), 'prevented (automatic) in demo');
    // A name stored before ids carried a hash is shown as it is; so is a name with its own '#'.
    assert.strictEqual(workspaceName('demo'), 'demo');
    assert.strictEqual(workspaceName('c#-project'), 'c#-project');
  });

  it('a lesson recorded by hand has no outcome', () => {
    const lesson = newLesson({ workspace: 'demo#0123456789abcdef', source: 'manual', agent: 'user' }, {
      errorText: "error TS2322: Type 'string' is not assignable to type 'number'.", rootCause: 'env values are strings', fixApproach: 'Number(process.env.PORT)',
    });
    assert.strictEqual(lesson.outcome, undefined);
  });
});
