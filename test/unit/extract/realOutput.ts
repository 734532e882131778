// The check every per-tool extract test runs on its tool's recorded outputs
// (test/fixtures/tool-output/<tool>/, recorded by bench/data/build-corpus.mjs): what a user would
// read off each one.
import * as assert from 'assert';
import { primaryError } from '../../../src/core/extract';
import { fixture } from '../../fixtures/tool-output';

export interface Expect { tool: string; code?: string; message: RegExp; file?: string; line?: number; column?: number; frames?: boolean }

/** One test per recorded output of `folder`, keyed "<id>.<variant>" (variant a, b or noisy). */
export function describeRealOutput(folder: string, cases: Record<string, Expect>): void {
  describe(`extract: ${folder}, real tool output`, () => {
    for (const [name, exp] of Object.entries(cases)) {
      it(`${folder}/${name}: ${exp.tool}${exp.code ? ' ' + exp.code : ''}`, () => {
        const m = /^(.+)\.(a|b|noisy)$/.exec(name)!;
        const e = primaryError(fixture(folder, m[1], m[2] as 'a' | 'b' | 'noisy'));
        assert.ok(e, 'an error is found');
        assert.strictEqual(e.tool, exp.tool);
        if (exp.code) assert.strictEqual(e.code, exp.code);
        assert.match(e.message, exp.message);
        if (exp.file) assert.strictEqual(e.file, exp.file);
        if (exp.line !== undefined) assert.strictEqual(e.line, exp.line);
        if (exp.column !== undefined) assert.strictEqual(e.column, exp.column);
        if (exp.frames) assert.ok(e.stack.length > 0 && e.stack.length <= 20, `frames: ${e.stack.length}`);
        assert.ok(!e.wrapper);
        assert.ok(e.excerpt.includes(e.message.split('\n')[0].slice(0, 30)), 'excerpt shows the error');
      });
    }
  });
}
