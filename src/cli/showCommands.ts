// `engram export`, `engram stats` and `engram show ID`: what the store holds, read and printed.
import { mean } from '../core/trust';
import type { Memory } from '../core/types';
import { memoryTitle } from '../core/types';
import { writeFileAtomicSync } from '../store/atomicFile';
import type { MemoryStore } from '../store/memoryStore';
import { need, str, type Args, type Io } from './args';
import { pct, round } from './format';

export function runExport(store: MemoryStore, args: Args, io: Io): number {
  const lines = store.exportLines();
  const text = lines.length ? lines.join('\n') + '\n' : '';
  const out = str(args, 'out');
  if (out) {
    // Owner-only, and replaced rather than written through: a link at `out` is swapped, not followed.
    writeFileAtomicSync(out, text);
    io.err(`exported ${lines.length} memories to ${out}\n`);
  } else {
    io.out(text);
  }
  return 0;
}

export function runStats(store: MemoryStore, io: Io, json: boolean): number {
  const s = store.stats();
  if (json) { io.out(JSON.stringify(s) + '\n'); return 0; }
  io.out(`${s.memories} memories (${Object.entries(s.byKind).map(([k, v]) => `${v} ${k}s`).join(', ')})\n` +
    `maturity: ${Object.entries(s.byMaturity).map(([k, v]) => `${k} ${v}`).join(', ')}\n` +
    `quarantined ${s.quarantined}, flagged ${s.flagged}; embedder ${s.embedder}${s.embedder === 'hash' ? ' (no model: words, signatures and hashed vectors)' : ''}, ${s.vectors} vectors\n` +
    (s.warnings.length ? `warnings:\n${s.warnings.map(w => `  - ${w}`).join('\n')}\n` : ''));
  return 0;
}

export function runShow(store: MemoryStore, rest: string[], io: Io, json: boolean): number {
  const id = need(rest[0], 'show needs a memory id');
  const m = store.get(id);
  if (!m) { io.err(`engram: no memory with id ${id}\n`); return 1; }
  const history = store.history(id);
  const detail = {
    ...m,
    confidence: round(mean(m.confidence)),
    alpha: m.confidence.alpha,
    beta: m.confidence.beta,
    evidence: m.kind === 'lesson' ? m.evidence : [],
    history,
  };
  if (json) { io.out(JSON.stringify(detail) + '\n'); return 0; }
  io.out(`${memoryTitle(m)}\n  id ${m.id} · ${m.kind} · ${m.maturity} · confidence ${pct(detail.confidence)} (α ${round(m.confidence.alpha)}, β ${round(m.confidence.beta)})\n` +
    describe(m) + (m.scope.length ? `  scope: ${m.scope.join(', ')}\n` : '') +
    `  history:\n${history.map(h => `    ${new Date(h.at).toISOString()}  ${h.detail}`).join('\n')}\n`);
  return 0;
}

function describe(m: Memory): string {
  switch (m.kind) {
    case 'lesson': return `  cause: ${m.rootCause}\n  fix:   ${m.fixApproach}\n  evidence: ${m.evidence.join(', ') || 'none yet'}\n`;
    case 'episode': return `  outcome: ${m.outcome}\n  ${m.summary}\n`;
    case 'fact': return `  ${m.content}\n`;
    case 'rule': return `  ${m.instruction}\n`;
  }
}
