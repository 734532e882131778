// The labelled trace corpus (test/fixtures/traces, made by scripts/dev/make-traces.mjs): every trace must
// be a valid capture trace that `engram replay` can read, every label must be checkable against it, and
// the recall queries must point at traces that exist. A broken fixture here would make the lesson bench
// measure nonsense.
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import { existsSync, readdirSync, readFileSync } from 'fs';
import { dirname, join, resolve } from 'path';
import { TRACE_EVENT_TYPES, type TraceEvent } from '../../src/core/capture/trace';

function tracesDir(): string {
  for (let dir = resolve(process.cwd()); ; dir = dirname(dir)) {
    const candidate = join(dir, 'test', 'fixtures', 'traces');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) throw new Error('test/fixtures/traces not found above ' + process.cwd());
  }
}

const SEVERITIES = ['error', 'warning', 'information', 'hint'];
const isRelPath = (p: unknown) => typeof p === 'string' && p.length > 0 && !p.startsWith('/') && !p.includes('\\') && !p.split('/').includes('..');
const isStr = (v: unknown) => typeof v === 'string';

/** Checks one parsed line against the TraceEvent union; returns what is wrong, or null. */
function problem(e: Record<string, unknown>): string | null {
  if (typeof e.t !== 'number' || !Number.isFinite(e.t) || e.t < 0) return 't must be a number >= 0';
  if (!(TRACE_EVENT_TYPES as readonly string[]).includes(e.type as string)) return `unknown type ${String(e.type)}`;
  const allowed: Record<string, string[]> = {
    open: ['file', 'text'], change: ['file', 'text'], save: ['file'], close: ['file'], disk: ['file', 'text', 'before'],
    diagnostics: ['file', 'items'], command: ['command', 'cwd', 'exitCode', 'output'], branch: ['name'], end: [],
  };
  const extra = Object.keys(e).filter(k => k !== 't' && k !== 'type' && !allowed[e.type as string].includes(k));
  if (extra.length) return `unexpected fields ${extra.join(', ')}`;
  switch (e.type) {
    case 'open': case 'change': return isRelPath(e.file) && isStr(e.text) ? null : 'needs a relative file and text';
    case 'save': case 'close': return isRelPath(e.file) ? null : 'needs a relative file';
    case 'disk':
      if (!isRelPath(e.file) || !(isStr(e.text) || e.text === null)) return 'needs a relative file and text or null';
      return e.before === undefined || e.before === null || isStr(e.before) ? null : 'before must be text or null';
    case 'diagnostics': {
      if (!isRelPath(e.file) || !Array.isArray(e.items)) return 'needs a relative file and items';
      for (const d of e.items as Record<string, unknown>[]) {
        if (!SEVERITIES.includes(d.severity as string)) return `bad severity ${String(d.severity)}`;
        if (!isStr(d.message) || !Number.isInteger(d.line) || (d.line as number) < 0) return 'item needs a message and a 0-based line';
        if (d.code !== undefined && !isStr(d.code) && typeof d.code !== 'number') return 'code must be text or a number';
        if (d.character !== undefined && (!Number.isInteger(d.character) || (d.character as number) < 0)) return 'bad character';
      }
      return null;
    }
    case 'command':
      if (!isStr(e.command) || !(e.command as string).trim()) return 'needs a command';
      if (e.exitCode !== undefined && !Number.isInteger(e.exitCode)) return 'exitCode must be an integer';
      return e.output === undefined || isStr(e.output) ? null : 'output must be text';
    case 'branch': return isStr(e.name) ? null : 'needs a name';
    default: return null;
  }
}

interface Label {
  description: string; family: string; mustContain: string[]; mustNotClaim: string[]; expectLesson: boolean; unexplained: boolean;
  placeholders?: Record<string, string>;
  // Issue 17's fields (optional: a label without them is measured by the ones above only).
  lessons?: number; errors?: string[]; mustNotSay?: string[]; resolved?: 'fixed' | 'unexplained' | 'open'; mergeGroup?: string;
  story?: 'terminal' | 'editor' | 'agent' | 'mixed'; live?: boolean; classes?: string[]; decoys?: string[];
}
const REQUIRED = ['description', 'expectLesson', 'family', 'mustContain', 'mustNotClaim', 'placeholders', 'unexplained'];
const OPTIONAL = ['lessons', 'errors', 'mustNotSay', 'resolved', 'mergeGroup', 'story', 'live', 'classes', 'decoys'];
const strList = (v: unknown) => Array.isArray(v) && v.every(s => typeof s === 'string' && s.length > 0);

describe('trace corpus: every fixture is a replayable, honestly labelled capture trace', () => {
  const dir = tracesDir();
  const names = readdirSync(dir).filter(f => f.endsWith('.jsonl') && f !== 'queries.jsonl').map(f => f.slice(0, -'.jsonl'.length)).sort();
  const labels = new Map(names.map(n => [n, JSON.parse(readFileSync(join(dir, `${n}.label.json`), 'utf8')) as Label]));
  const read = (n: string) => readFileSync(join(dir, `${n}.jsonl`), 'utf8').trimEnd().split('\n').map(l => JSON.parse(l) as TraceEvent);

  it('has at least 32 traces, each with a label, across the tool families the issue names', () => {
    assert.ok(names.length >= 32, `only ${names.length} traces`);
    const families = new Set([...labels.values()].map(l => l.family));
    for (const f of ['tsc', 'node', 'npm', 'python', 'pytest', 'jest', 'eslint', 'rustc', 'gcc', 'javac']) assert.ok(families.has(f), `no ${f} trace`);
    assert.ok([...labels.values()].filter(l => l.mustContain.some(c => c.startsWith('pip install'))).length >= 3, 'fewer than 3 pip-install episodes for the pattern case');
  });

  for (const name of names) {
    it(`${name}: parses as trace events in time order, ends once, shows an error, leaks no temp path`, () => {
      const text = readFileSync(join(dir, `${name}.jsonl`), 'utf8');
      assert.doesNotMatch(text, /engram-trace-[A-Za-z0-9]{6}/, 'the temp folder leaked into the trace');
      let last = 0;
      const events = text.trimEnd().split('\n').map((line, i) => {
        const e = JSON.parse(line) as Record<string, unknown>;
        const p = problem(e);
        assert.strictEqual(p, null, `line ${i + 1}: ${p}`);
        assert.ok((e.t as number) >= last, `line ${i + 1}: t went back from ${last} to ${String(e.t)}`);
        last = e.t as number;
        return e as unknown as TraceEvent;
      });
      assert.strictEqual(events.at(-1)?.type, 'end');
      assert.strictEqual(events.filter(e => e.type === 'end').length, 1);
      const failed = events.some(e => (e.type === 'diagnostics' && e.items.some(d => d.severity === 'error')) || (e.type === 'command' && e.exitCode !== 0));
      assert.ok(failed, 'no error diagnostic and no failing command: nothing to learn from');
    });

    it(`${name}: label is well-formed and checkable against the trace`, () => {
      const l = labels.get(name)!;
      for (const k of REQUIRED) assert.ok(k in l, `no ${k}`);
      for (const k of Object.keys(l)) assert.ok(REQUIRED.includes(k) || OPTIONAL.includes(k), `unknown label field ${k}`);
      if (l.lessons !== undefined) assert.ok(Number.isInteger(l.lessons) && l.lessons >= 0 && (l.lessons > 0) === l.expectLesson, 'lessons must agree with expectLesson');
      for (const k of ['errors', 'mustNotSay', 'classes', 'decoys'] as const) if (l[k] !== undefined) assert.ok(strList(l[k]), `${k} must be a list of texts`);
      if (l.resolved !== undefined) assert.ok(['fixed', 'unexplained', 'open'].includes(l.resolved));
      if (l.resolved === 'unexplained') assert.ok(l.unexplained);
      if (l.story !== undefined) assert.ok(['terminal', 'editor', 'agent', 'mixed'].includes(l.story));
      if (l.mergeGroup !== undefined) assert.ok(/^[a-z0-9-]+$/.test(l.mergeGroup));
      assert.ok(l.description.length > 20 && /^[a-z][a-z0-9]*$/.test(l.family));
      assert.ok(Array.isArray(l.mustContain) && l.mustContain.every(s => typeof s === 'string' && s.length > 0));
      assert.ok(Array.isArray(l.mustNotClaim) && l.mustNotClaim.every(s => typeof s === 'string' && s.length > 0));
      assert.strictEqual(typeof l.expectLesson, 'boolean');
      assert.strictEqual(typeof l.unexplained, 'boolean');
      if (l.unexplained) assert.ok(!l.expectLesson && l.mustContain.length === 0, 'an unexplained episode expects no lesson');
      else if (l.expectLesson) assert.ok(l.mustContain.length > 0, 'a lesson with no required facts measures nothing');
      else assert.ok(l.mustContain.length === 0, 'no lesson expected, so no facts to find');
      const events = read(name);
      const all = JSON.stringify(events);
      // A required fact must be in the evidence, or no honest lesson could contain it.
      for (const fact of l.mustContain) assert.ok(all.includes(JSON.stringify(fact).slice(1, -1)), `fact not in the trace: ${fact}`);
      // An error the lesson must be found by was really printed or reported.
      for (const e of l.errors ?? []) assert.ok(all.includes(JSON.stringify(e).slice(1, -1)), `error line not in the trace: ${e}`);
      // A file the lesson must not claim as changed really did not change, and a command was not run,
      // unless the label says it is a decoy (changed or run, and still not the fix).
      const changed = new Set(events.flatMap(e => (e.type === 'change' || e.type === 'disk' ? [e.file] : [])));
      const ran = new Set(events.flatMap(e => (e.type === 'command' ? [e.command] : [])));
      const decoys = new Set(l.decoys ?? []);
      for (const d of decoys) assert.ok(changed.has(d) || ran.has(d), `decoy ${d} is neither changed nor run in the trace`);
      for (const f of l.mustNotClaim.filter(x => !decoys.has(x))) {
        assert.ok(!changed.has(f), `${f} is in mustNotClaim but the trace changes it (a decoy?)`);
        assert.ok(!ran.has(f), `${f} is in mustNotClaim but the trace runs it (a decoy?)`);
      }
    });
  }

  it('queries.jsonl: real error output, at least 15 with an answer among the traces and 15 with none, each placed', () => {
    const queries = readFileSync(join(dir, 'queries.jsonl'), 'utf8').trimEnd().split('\n').map(l => JSON.parse(l) as Record<string, unknown>);
    const ids = new Set<unknown>();
    for (const q of queries) {
      assert.deepStrictEqual(Object.keys(q).sort(), ['expect', 'file', 'id', 'kind', 'of', 'query']);
      assert.ok(typeof q.id === 'string' && !ids.has(q.id), `duplicate or missing id ${String(q.id)}`);
      ids.add(q.id);
      assert.ok(typeof q.query === 'string' && q.query.trim().length > 10 && isRelPath(q.file));
      assert.ok(q.expect === null || (typeof q.expect === 'string' && labels.get(q.expect)?.expectLesson), `expect ${String(q.expect)} is not a trace with a lesson`);
      if (q.kind === 'related') assert.ok(q.expect !== null && q.of === q.expect);
      else if (q.kind === 'near-miss') assert.ok(q.expect === null && typeof q.of === 'string' && labels.has(q.of), `near miss of ${String(q.of)}`);
      else assert.ok(q.kind === 'foreign' && q.expect === null && q.of === null, `kind ${String(q.kind)}`);
    }
    assert.ok(queries.filter(q => q.expect !== null).length >= 15);
    assert.ok(queries.filter(q => q.expect === null).length >= 15);
  });

  it('heldout.json is what its seeded rule picks from the labels (nobody moved a trace by hand)', () => {
    const committed = JSON.parse(readFileSync(join(dir, 'heldout.json'), 'utf8')) as { traces: string[]; seed: number };
    const rule = spawnSync(process.execPath, [join(dir, '..', '..', '..', 'scripts', 'dev', 'traces', 'heldout.mjs'), dir], { encoding: 'utf8' });
    assert.strictEqual(rule.status, 0, rule.stderr);
    assert.deepStrictEqual(committed, JSON.parse(rule.stdout));
    for (const n of committed.traces) assert.ok(labels.has(n), `held-out ${n} is not a trace`);
  });
});
