// Semantic facts with two shapes. Profile facts have a key (packageManager, testRunner, …): the latest
// value wins and the older one stays as history (supersedes / supersededBy). Collection facts are
// deduplicated, and a newer fact on the same subject supersedes the older the same way. Pure: returns the
// events the store should append.
import type { Fact, MemoryEvent } from './types';
import { sameWorkspace } from './workspaceId';

export type FactType = Fact['type'];

/** Profile keys and what names them (English and Korean). Order matters: the first match wins. */
const PROFILE_KEYS: { key: string; re: RegExp }[] = [
  { key: 'packageManager', re: /\b(npm|pnpm|yarn|bun)\b.*\b(package\s*manager|install|use[sd]?|using)\b|\b(package\s*manager|use[sd]?|using|prefer)\b.*\b(npm|pnpm|yarn|bun)\b|패키지\s*(매니저|관리자)/i },
  { key: 'testRunner', re: /\b(jest|vitest|mocha|pytest|jasmine|ava|unittest|nose|rspec|junit|cargo\s+test|go\s+test|playwright\s+test)\b|\btest\s*runner\b|테스트\s*(러너|프레임워크)/i },
  { key: 'formatter', re: /\b(prettier|black|rustfmt|gofmt|clang-format|biome)\b/i },
  { key: 'linter', re: /\b(eslint|ruff|flake8|pylint|clippy|golangci-lint|tslint)\b/i },
  { key: 'codeStyle', re: /\b(indent(ation)?|tabs?|spaces|semicolons?|single\s+quotes|double\s+quotes|trailing\s+commas?|camel\s*case|snake_case|line\s+length|naming\s+convention)\b|들여쓰기|세미콜론|따옴표|코딩\s*스타일|네이밍/i },
  { key: 'nodeVersion', re: /\bnode(\.js)?\s*(version\s*)?v?\d+|\bnode\s+version\b|노드\s*버전/i },
  { key: 'replyLanguage', re: /\b(answer|reply|respond|write)\s+(me\s+)?in\s+(korean|english|japanese|chinese)\b|(한국어|영어)로\s*(답|대답|응답|작성)/i },
  { key: 'language', re: /\b(written\s+in|main\s+language\s+is|codebase\s+is|project\s+(is|uses))\s+(typescript|javascript|python|rust|go|java|kotlin|c\+\+|c#|ruby|php|swift)\b|\b(typescript|javascript|python|rust|go|java|kotlin|ruby)\s+(project|codebase)\b|(주\s*)?언어는/i },
  { key: 'framework', re: /\b(react|vue|svelte|angular|next\.?js|nuxt|express|fastify|nestjs|django|flask|fastapi|rails|spring)\b.*\b(framework|use[sd]?|using|built\s+with)\b|\b(framework|built\s+with|using|switch(ed)?\s+to|migrat\w*\s+to|adopt\w*)\b.*\b(react|vue|svelte|angular|next\.?js|nuxt|express|fastify|nestjs|django|flask|fastapi|rails|spring)\b|프레임워크/i },
];

const PREFERENCE_RE = /\b(prefer|prefers|preferred|i\s+like|we\s+like|always|never|please\s+(use|avoid)|avoid|rather\s+than|don'?t\s+use)\b|선호|항상|절대|하지\s*마|쓰지\s*마|말아\s*줘/i;
const DECISION_RE = /\b(decided|decision|we\s+chose|we\s+picked|chosen|going\s+forward|from\s+now\s+on|agreed\s+to|we\s+will\s+use|switched\s+to|migrat(ed|ing)\s+to|adr)\b|결정|합의|앞으로는|으로\s*바꿨|전환/i;

/** Type and (for profile facts) key of a fact, from its text. */
export function classifyFact(content: string): { type: FactType; key?: string } {
  const text = (content || '').normalize('NFKC');
  const type: FactType = DECISION_RE.test(text) ? 'decision' : PREFERENCE_RE.test(text) ? 'preference' : 'fact';
  const key = PROFILE_KEYS.find(k => k.re.test(text))?.key;
  return key ? { type, key } : { type };
}

/** Profile key of a fact's text, if any (ARCHITECTURE name). */
export function factKey(content: string): string | undefined {
  return classifyFact(content).key;
}

function words(s: string): Set<string> {
  return new Set((s || '').toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}_.+#-]+/gu)?.filter(w => w.length > 1) ?? []);
}

function normalise(s: string): string {
  return (s || '').toLowerCase().normalize('NFKC').replace(/[\s.!,;:'"`]+/g, ' ').trim();
}

/** Jaccard overlap of two facts' words. */
export function factSimilarity(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  if (!x.size || !y.size) return 0;
  let inter = 0;
  for (const w of x) if (y.has(w)) inter++;
  return inter / (x.size + y.size - inter);
}

/** Facts above this overlap are about the same subject (the newer one supersedes). */
export const SAME_SUBJECT_MIN_SIMILARITY = 0.6;

function sameOwner(a: Fact, b: Fact): boolean {
  // A fact filed under the folder's old name (before workspace ids carried a hash) is still this folder's.
  return a.owner.scope === b.owner.scope && ((a.owner.workspace ?? '') === (b.owner.workspace ?? '') || sameWorkspace(a.owner.workspace, b.owner.workspace));
}

function current(existing: Fact[], newFact: Fact): Fact[] {
  return existing.filter(f => f.kind === 'fact' && f.id !== newFact.id && !f.deleted && !f.supersededBy && sameOwner(f, newFact));
}

/** The existing current fact that `newFact` repeats word for word, if any. */
export function duplicateOf(newFact: Fact, existing: Fact[]): Fact | undefined {
  const n = normalise(newFact.content);
  return current(existing, newFact).find(f => normalise(f.content) === n);
}

/** The current fact `newFact` replaces: same profile key, or (collection) same topic or same subject. */
export function supersedes(newFact: Fact, existing: Fact[]): Fact | undefined {
  const live = current(existing, newFact);
  const key = newFact.key ?? classifyFact(newFact.content).key;
  if (key) {
    const prior = live.filter(f => (f.key ?? classifyFact(f.content).key) === key);
    return prior.sort((a, b) => b.createdAt - a.createdAt)[0];
  }
  const candidates = live
    .filter(f => !(f.key ?? classifyFact(f.content).key))
    .map(f => ({ f, s: newFact.topic && f.topic && newFact.topic.toLowerCase() === f.topic.toLowerCase() ? 1 : factSimilarity(newFact.content, f.content) }))
    .filter(x => x.s >= SAME_SUBJECT_MIN_SIMILARITY)
    .sort((a, b) => b.s - a.s || b.f.createdAt - a.f.createdAt);
  return candidates[0]?.f;
}

/**
 * Events that record `newFact`: nothing new for a word-for-word repeat (the existing one is marked as
 * seen again), otherwise `recorded` — linked to the fact it supersedes, which stays as history.
 */
export function resolveFactUpdate(newFact: Fact, existing: Fact[], now = newFact.createdAt): MemoryEvent[] {
  const dup = duplicateOf(newFact, existing);
  if (dup) return [{ type: 'accessed', id: dup.id, at: now }];
  const cls = classifyFact(newFact.content);
  const fact: Fact = { ...newFact, key: newFact.key ?? cls.key };
  if (fact.key === undefined) delete fact.key;
  const old = supersedes(fact, existing);
  if (!old) return [{ type: 'recorded', id: fact.id, at: now, memory: fact }];
  return [
    { type: 'recorded', id: fact.id, at: now, memory: { ...fact, supersedes: old.id } },
    { type: 'updated', id: old.id, at: now, patch: { supersededBy: fact.id }, reason: `superseded by a newer fact${fact.key ? ` (${fact.key})` : ''}` },
  ];
}

/** The current value of each profile key (latest non-superseded fact). */
export function profile(facts: Iterable<Fact>): Record<string, Fact> {
  const out: Record<string, Fact> = {};
  for (const f of facts) {
    if (f.kind !== 'fact' || f.deleted || f.supersededBy || !f.key) continue;
    if (!out[f.key] || out[f.key].createdAt < f.createdAt) out[f.key] = f;
  }
  return out;
}

/** A fact's chain of earlier values, newest first (for the history view). */
export function factHistory(fact: Fact, byId: (id: string) => Fact | undefined): Fact[] {
  const out: Fact[] = [];
  const seen = new Set<string>([fact.id]);
  let cur = fact.supersedes ? byId(fact.supersedes) : undefined;
  while (cur && !seen.has(cur.id)) {
    out.push(cur);
    seen.add(cur.id);
    cur = cur.supersedes ? byId(cur.supersedes) : undefined;
  }
  return out;
}
