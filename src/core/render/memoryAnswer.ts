// The one renderer of a recalled memory as people read it: the hover, @memory chat and the CLI's `recall`.
// What a memory says (its fields, in order), its warnings (flagged, possibly stale) and the line of facts
// about it (confidence, maturity, scope, how often seen, why it came) are decided here once; a surface
// picks only its format (escaped Markdown, or plain text for a terminal), its field cap and which facts it
// shows (SURFACES). Agents get the nonce-delimited data block of core/prompt.ts instead, which is data for
// a model, not text for a person. Memory text is untrusted: in Markdown every field goes through
// escapeInline, so it can never become a link, an image, HTML or a command. Pure: no VS Code.
import { english, type Translate } from '../l10n';
import { escapeInline, percent } from '../markdown';
import { flagReasons } from '../prompt';
import { reasonTexts } from '../reasons';
import { workspaceConfidence } from '../trust';
import { episodeFix, memoryTitle, type Maturity, type Memory, type RecallResult } from '../types';

export type AnswerFact = 'confidence' | 'maturity' | 'scope' | 'seen' | 'why';

export interface AnswerSurface {
  /** Escaped Markdown (hover, chat) or plain text (a terminal: nothing is escaped, nothing rendered). */
  format: 'markdown' | 'plain';
  /** Characters per field: a hover is a glance, chat a read, a terminal prints it all. */
  maxField: number;
  /** A numbered title line first (a list of answers); a hover shows the memory under the error itself. */
  title: boolean;
  /** The facts line, in this order. */
  facts: readonly AnswerFact[];
  /** How a warning starts: a theme icon where the surface renders them (the hover). */
  warn: string;
}

export const SURFACES = {
  hover: { format: 'markdown', maxField: 300, title: false, facts: ['confidence', 'maturity', 'scope', 'seen'], warn: '$(warning)' },
  chat: { format: 'markdown', maxField: 400, title: true, facts: ['confidence', 'maturity', 'scope', 'why'], warn: '⚠' },
  cli: { format: 'plain', maxField: 4000, title: true, facts: ['confidence', 'maturity', 'scope', 'why'], warn: 'note:' },
} as const satisfies Record<string, AnswerSurface>;

export interface AnswerContext {
  /** The UI language on host surfaces (vscode.l10n.t); English in the CLI. */
  t?: Translate;
  /** The workspace asking: the confidence shown is the one its ranking used. */
  workspace?: string;
  /** The number in a list (surfaces with a title line). */
  n?: number;
  /** Why the memory may be stale, when the surface checked. */
  stale?: string;
}

/** What a memory says, labelled in `t`'s language, in the order people read it. */
export function answerFields(m: Memory, t: Translate = english): { label: string; text: string }[] {
  const f: { label: string; text: string }[] = [];
  switch (m.kind) {
    case 'lesson':
      f.push({ label: t('Root cause'), text: m.rootCause }, { label: t('Fix'), text: m.fixApproach });
      break;
    case 'rule':
      f.push({ label: t('Rule'), text: m.instruction });
      break;
    case 'fact':
      f.push({ label: t('Fact'), text: m.content });
      break;
    case 'episode': {
      f.push({ label: t('Last time'), text: m.summary || m.trigger });
      const fix = episodeFix(m);
      if (fix) f.push({ label: t('Fix'), text: fix });
      break;
    }
  }
  return f.filter(x => x.text.trim());
}

export function maturityText(m: Maturity, t: Translate = english): string {
  switch (m) {
    case 'observation': return t('observation');
    case 'pattern': return t('pattern');
    case 'rule': return t('rule');
    case 'constraint': return t('constraint');
  }
}

/** "73% confidence" from a 0–1 confidence. */
export function confidenceText(confidence: number, t: Translate = english): string {
  return t('{0} confidence', percent(confidence));
}

/** One recalled memory on `surface`: lines joined by the surface's line break. */
export function renderMemoryAnswer(r: RecallResult, surface: AnswerSurface, ctx: AnswerContext = {}): string {
  const t = ctx.t ?? english;
  const m = r.memory;
  const md = surface.format === 'markdown';
  const text = (s: string, max = surface.maxField) => (md ? escapeInline(s, max) : oneLine(s, max));
  const lines: string[] = [];
  if (surface.title) {
    const n = ctx.n ?? 1;
    lines.push(md ? `${n}\\. **${text(memoryTitle(m), 200)}**` : `${n}. [${m.kind}, ${m.maturity}] ${oneLine(memoryTitle(m), 200)}  (${m.id}, score ${r.score.toFixed(2)}${r.weak ? ', weak match' : ''})`);
  }
  for (const f of answerFields(m, t)) lines.push(md ? `**${text(f.label)}:** ${text(f.text)}` : `   ${f.label}: ${text(f.text)}`);
  const indent = md ? '' : '   ';
  if (flagReasons(m).length) lines.push(`${indent}${surface.warn} ${text(t('Flagged: this memory contains text that looks like instructions.'), 300)}`);
  if (ctx.stale) lines.push(`${indent}${surface.warn} ${text(t('Possibly stale: {0}', ctx.stale), 300)}`);
  const facts = surface.facts.map(f => fact(f, r, t, ctx.workspace)).filter((s): s is string => !!s);
  if (facts.length) lines.push(indent + (md ? facts.map(s => text(s, 400)).join(' · ') : facts.join(' · ')));
  return lines.join(md ? '  \n' : '\n');
}

function fact(f: AnswerFact, r: RecallResult, t: Translate, workspace: string | undefined): string | undefined {
  const m = r.memory;
  switch (f) {
    case 'confidence': return confidenceText(workspaceConfidence(m, workspace), t);
    case 'maturity': return maturityText(m.maturity, t);
    case 'scope': return m.scope.length ? t('scope {0}', m.scope.join(', ')) : t('whole workspace');
    case 'seen': {
      const seen = m.kind === 'lesson' ? Math.max(1, m.evidence.length) : Math.max(1, m.accessCount);
      return seen === 1 ? t('seen once') : t('seen {0} times', seen);
    }
    case 'why': return r.reasons.length ? t('why: {0}', reasonTexts(r.reasons, t).join('; ')) : undefined;
  }
}

/** Plain text on one line, bounded: a terminal shows it as written (control characters are the CLI's to make visible). */
function oneLine(s: string, max: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1) + '…' : t;
}
