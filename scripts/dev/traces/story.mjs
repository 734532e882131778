// A trace written as a list of steps, for the families added with issue 17: the same Session calls the
// older family files make by hand, in less space. A step is an array whose first item names it:
//   ['open', file]                    a file opened in the editor
//   ['run', cmd, expect, {cwd}]       a terminal command; expect 0, 'fail' or an exit code (checked)
//   ['unseen', cmd]                   something capture cannot see (another terminal, a background job)
//   ['edit', file, text]              an editor edit (full text), then save
//   ['replace', file, from, to]       an editor edit of one part, then save
//   ['agent', file, text]             a coding agent's write on disk (text, or null to delete)
//   ['agentReplace', file, from, to]  the same, of one part
//   ['create', file, text]            a new file made in the editor
//   ['type', file, at, typed]         typed key by key after `at`, at a person's pace
//   ['close', file]  ['branch', name]  ['wait', ms]
//   ['server', 'tsc'|'eslint'|'rustc'|'go'|'mypy'|'shellcheck'|['pyright', bin]]   a language server starts
//   a function (s => …)               anything else, on the Session
// `queries` are the trace's recall set (queries.mjs): `related` errors from other files its lesson should
// answer, `near` misses it should stay quiet on.
import { Session } from './session.mjs';
import { label } from './label.mjs';

const SERVERS = { tsc: s => s.useTsc(), eslint: s => s.useEslint(), rustc: s => s.useRustc(), go: s => s.useGo(), mypy: s => s.useMypy(), shellcheck: s => s.useShellcheck() };

export function story(def) {
  return {
    name: def.name, family: def.family, queries: def.queries ?? [],
    run(out) {
      const s = new Session(def.name, typeof def.files === 'function' ? def.files() : def.files, typeof def.opts === 'function' ? def.opts() : def.opts ?? {});
      try {
        for (const step of def.steps) perform(s, step);
      } catch (e) { s.discard(); throw e; }
      s.finish(out, label({ family: def.family, ...def.label }));
    },
  };
}

function perform(s, step) {
  if (typeof step === 'function') return step(s);
  const [kind, a, b, c] = step;
  switch (kind) {
    case 'open': return s.open(a);
    case 'run': return s.command(a, { expect: b, ...(c ?? {}) });
    case 'unseen': { s.unseen(a); s.snap = s.snapshot(); return; }
    case 'edit': return s.edit(a, b);
    case 'replace': return s.replace(a, b, c);
    case 'agent': return s.agentWrite(a, b);
    case 'agentReplace': {
      const text = s.read(a);
      if (!text.includes(b)) throw new Error(`${s.name}: ${a} has no ${JSON.stringify(b)}`);
      return s.agentWrite(a, text.replace(b, () => c));
    }
    case 'create': return s.create(a, b);
    case 'type': return s.type(a, b, c);
    case 'close': return s.close(a);
    case 'branch': return s.branch(a);
    case 'wait': { s.t += a; return; }
    case 'server': return Array.isArray(a) ? s.usePyright(a[1]) : SERVERS[a](s);
    default: throw new Error(`${s.name}: unknown step ${kind}`);
  }
}
