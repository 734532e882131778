// A recall result as JSON, the one shape `engram recall --json` prints and `engram serve` answers
// (`POST /v1/recall`): id, kind, score, why and the memory's fields a caller acts on.
import { reasonTexts } from './reasons';
import { mean } from './trust';
import { memoryTitle, type RecallResult } from './types';

export function recallResultJson(r: RecallResult) {
  const m = r.memory;
  const base = {
    id: m.id, kind: m.kind, score: r.score, why: reasonTexts(r.reasons), title: memoryTitle(m), scope: m.scope,
    maturity: m.maturity, confidence: round(mean(m.confidence)), ...(r.weak ? { weak: true } : {}),
  };
  switch (m.kind) {
    case 'lesson': return {
      ...base, rootCause: m.rootCause, fixApproach: m.fixApproach, errorText: m.errorText, errorSignature: m.errorSignature,
      ...(m.commands?.length ? { commands: m.commands } : {}), ...(m.change ? { change: m.change } : {}),
      ...(m.author ? { author: m.author } : {}), ...(m.unexplained ? { unexplained: true } : {}),
      ...(m.flagged?.length ? { flagged: m.flagged } : {}),
    };
    case 'episode': return { ...base, summary: m.summary, outcome: m.outcome, resolution: m.resolution, ...(m.flagged?.length ? { flagged: m.flagged } : {}) };
    case 'fact': return { ...base, content: m.content, ...(m.flagged?.length ? { flagged: m.flagged } : {}) };
    case 'rule': return { ...base, instruction: m.instruction, ...(m.flagged?.length ? { flagged: m.flagged } : {}) };
  }
}

export type RecallResultJson = ReturnType<typeof recallResultJson>;

function round(x: number): number { return Math.round(x * 1000) / 1000; }
