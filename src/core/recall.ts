// Scoped recall: candidates from the exact signature key, BM25 words and (optionally) vectors; filters
// for owner, expiry, quarantine, outcome and scope; rank by relevance × trust × recency × importance,
// tighter scope first; a hard cap, plus every constraint in scope; each result says why it came and,
// through the proactive gate (recallGate.ts), whether it is strong enough to show unasked.
// Over ~400 lines on purpose: RecallEngine is one pipeline (candidates, filters, score, reasons, caps)
// over the same caches and deps, and a rule in one step (say, tighter scope first) is only right read
// with the others. What a query is made of lives apart, in recallQuery.ts.
import { compareDetails, errorDetails, type DetailMatch, type ErrorDetail } from './errorDetails';
import { tokenize } from './lexical';
import { memorySignature } from './memoryText';
import { isStrong, MIN_OWN_COVERAGE, type RecallEvidence } from './recallGate';
import { failingTestNames, namesFailingTest, runnerFailedTests } from './recall/failingTest';
import { proseLesson, proseTexts, quotedNames, saysError } from './recall/proseError';
import { primaryError } from './extract';
import type { MemoryLookup, SignatureIndex, WordIndex } from './recall/source';
import { scopeMatches, scopeSpecificity } from './scope';
import type { RecallReason } from './reasons';
import { codeOf, embeddingText, pickTokens, queryErrors, queryMeaning, shownWord, signatureTextOf, surfaceMap, type QueryError, type QueryMeaning } from './recallQuery';
import { namedValues, namedWords, otherName } from './recall/namedValues';
import { workspaceConfidence } from './trust';
import type { Memory, OwnerScope, RecallQuery, RecallResult, StaleCheck } from './types';

// Callers keyed memories by these before they had their own module.
export { querySignatures, signatureKeyOf, signatureTextOf } from './recallQuery';

export interface VectorSearch {
  search(query: Float32Array, n: number, filter?: (id: string) => boolean): { id: string; score: number }[];
}

/** What ranking reads (interfaces in recall/source.ts: the in-memory indexes, the store's persisted view, or a database's rows). */
export interface RecallDeps {
  state: MemoryLookup;
  lexical: WordIndex;
  bySignature: SignatureIndex;
  /** Ids of constraints in the order first recorded; default: a scan of `state.all()` per revision. */
  constraintIds?: () => readonly string[];
  /** The first lesson (in the order first recorded) citing an episode; default: a scan of `state.all()` per revision. */
  lessonOfEpisode?: (episodeId: string) => string | undefined;
  vectors?: VectorSearch;
  embedQuery?: (text: string) => Promise<Float32Array | undefined>;
  /** Why a memory is stale (code it names is gone); a query's own `isStale` (RecallQuery) comes first. */
  isStale?: StaleCheck;
  defaultOwners?: OwnerScope[];
  /**
   * Rescore-only vectors: cosine for the candidates that signatures and words found, without scanning
   * every vector. For the model-free hash embedder, whose vectors see the same words BM25 sees, a full
   * scan finds nothing new and costs most of the query time.
   */
  vectorOf?: (id: string) => Float32Array | undefined;
  /**
   * Workspace recalling: trust is its own tally when workspaces disagree about a memory (trust.ts
   * effectiveConfidence), never an average that would let one project's successes vouch for a fix
   * another project found wrong.
   */
  workspaceId?: string;
}

export const DEFAULT_K = 5;
export const DEFAULT_OWNERS: readonly OwnerScope[] = ['workspace', 'team'];
/** Constraints are always shown in scope, but a runaway list would bury everything else. */
const MAX_EXTRA_CONSTRAINTS = 10;
/** A pasted log can hold hundreds of words; the rarest ones carry the meaning and bound the cost. */
const DAY = 86_400_000;
const RECENCY_HALF_LIFE = 30 * DAY;
/** Cosine below this is noise for the model-free hash embedder and weak for real models. */
const MIN_SIMILAR = 0.3;
/** Weight of a scoped memory when the query names no file (the general memory goes first). */
const UNKNOWN_PLACE_FACTOR = 0.93;
/** Results scoring below this share of the best one are dropped. */
const RELATIVE_FLOOR = 0.25;
const GLOBAL_SCOPE = { ok: true, spec: 0 } as const;
/** A signature shared by more memories than this (a very common error) is narrowed before ranking. */
const MAX_SIGNATURE_CANDIDATES = 300;
const LADDER_RANK = { observation: 0, pattern: 1, rule: 2, constraint: 3 } as const;
const MAX_DETAIL_CACHE = 5000;

interface Scored { memory: Memory; score: number; spec: number; c: Candidate; evidence: RecallEvidence }

interface Candidate {
  id: string;
  sig?: string; // label of the signature that matched
  /** The query's signature key it matched (its error line names the values judge compares). */
  sigKey?: string;
  lex: number;
  terms: string[];
  cos: number;
  /** For signature matches: whether the module / type / test of the error is the same. */
  details?: DetailMatch;
  /** Without a signature match: the memory names the test the query reports failing (recall/failingTest.ts). */
  test?: boolean;
  /** Without a signature match: the lesson, in an agent's prose, says the query's error (recall/proseError.ts). */
  says?: boolean;
}

export class RecallEngine {
  private constraintCache: { revision: number; ids: string[] } | undefined;
  private textCache: { revision: number; size: number; byText: Map<string, string[]> } | undefined;
  private lessonCache: { revision: number; byEpisode: Map<string, string> } | undefined;

  /** Episode id → the (first) lesson that has it as evidence, rebuilt when the state changes. */
  private episodeLessons(): Map<string, string> {
    const rev = this.deps.state.revision;
    if (this.lessonCache?.revision !== rev) {
      const byEpisode = new Map<string, string>();
      for (const m of this.deps.state.all()) {
        if (m.kind !== 'lesson' || m.deleted) continue;
        for (const e of m.evidence) if (!byEpisode.has(e)) byEpisode.set(e, m.id);
      }
      this.lessonCache = { revision: rev, byEpisode };
    }
    return this.lessonCache.byEpisode;
  }
  private readonly detailCache = new Map<string, { at: number; details: ErrorDetail[] }>();
  private readonly wordCache = new Map<string, { at: number; words: Set<string> }>();
  private readonly ownWordCache = new Map<string, Set<string>>();
  private readonly proseCache = new Map<string, { at: number; texts: string[] }>();

  constructor(private readonly deps: RecallDeps) {}

  async recall(q: RecallQuery): Promise<RecallResult[]> {
    const { state, lexical } = this.deps;
    const now = q.now ?? Date.now();
    const k = Math.max(1, Math.floor(q.k ?? DEFAULT_K));
    const owners = new Set<OwnerScope>(q.owners ?? this.deps.defaultOwners ?? DEFAULT_OWNERS);
    const text = (q.text ?? '').slice(0, 64 * 1024);
    const poolSize = Math.max(50, k * 10);
    const cands = new Map<string, Candidate>();
    const cand = (id: string): Candidate => {
      let c = cands.get(id);
      if (!c) { c = { id, lex: 0, terms: [], cos: 0 }; cands.set(id, c); }
      return c;
    };

    // 1. Exact signature keys: the whole query, and each error found in it. The same normalised message
    //    under another tool prefix (a pasted line without "error TS…:" framing) counts too.
    const sigs = this.signatures();
    const sigIds = new Map<string, string>(); // id -> the query's key it matched
    const qErrors = queryErrors(text);
    const qSigs = new Map([...qErrors].map(([key, e]) => [key, e.label]));
    for (const key of qErrors.keys()) {
      for (const id of sigs.idsWith(key)) if (!sigIds.has(id)) sigIds.set(id, key);
      const code = codeOf(key);
      for (const other of sigs.keysWithText(signatureTextOf(key))) {
        // When one side lacks a code, or both have the same one under another tool (mocha and node print
        // the same ERR_ASSERTION): TS2322 and TS2345 with the same words are different errors.
        const otherCode = codeOf(other);
        if (other === key || (code !== '-' && otherCode !== '-' && otherCode !== code)) continue;
        for (const id of sigs.idsWith(other)) if (!sigIds.has(id)) sigIds.set(id, key);
      }
    }

    // 2. Words (BM25), rarest query tokens first when the query is long.
    const allTokens = tokenize(text);
    const tokens = pickTokens(allTokens, lexical);
    const queryWords = new Set(allTokens);
    const meaning = queryMeaning(text, tokens, lexical);
    const lexHits = lexical.searchWithTerms(tokens, poolSize);
    const maxLex = lexHits.length ? lexHits[0].score : 0;
    for (const h of lexHits) {
      const c = cand(h.id);
      c.lex = maxLex > 0 ? h.score / maxLex : 0;
      c.terms = h.terms;
    }

    // Many memories share the same globs: match each distinct scope against the file once per query.
    const scopeMemo = new Map<string, { ok: boolean; spec: number }>();
    const scopeOf = (m: Memory) => {
      if (!m.scope.length) return GLOBAL_SCOPE;
      const key = m.scope.length === 1 ? m.scope[0] : m.scope.join('\n');
      let r = scopeMemo.get(key);
      if (!r) {
        if (q.file) {
          const ok = scopeMatches(m.scope, q.file);
          r = { ok, spec: ok ? scopeSpecificity(m.scope, q.file) : 0 };
        } else {
          // No file at hand: a memory for one corner of the repo is a weaker bet than a general one.
          r = { ok: true, spec: scopeSpecificity(m.scope) > 0 ? -1 : 0 };
        }
        scopeMemo.set(key, r);
      }
      return r;
    };
    const keep = (m: Memory | undefined): m is Memory => !!m && this.passes(m, q, owners, now) && scopeOf(m).ok;

    // Signature members join the candidates. A very common signature (thousands of "cannot find module")
    // is narrowed to the members that pass the filters and, past a bound, to the best by trust, recency,
    // importance and scope fit, so ranking work stays bounded however big the store grows.
    const qDetails = errorDetails(text);
    if (!qDetails.some(d => d.kind === 'test')) qDetails.push(...runnerFailedTests(text));
    if (sigIds.size) {
      let members: { id: string; key: string; prior: number }[] = [];
      for (const [id, key] of sigIds) {
        const c = cands.get(id);
        const m = state.get(id);
        if (c) { if (!c.sig) { c.sig = qSigs.get(key); c.sigKey = key; } continue; }
        if (!keep(m)) continue;
        members.push({ id, key, prior: sigIds.size > MAX_SIGNATURE_CANDIDATES ? this.prior(m, now, scopeOf(m).spec) : 0 });
      }
      if (members.length > MAX_SIGNATURE_CANDIDATES) members = members.sort((a, b) => b.prior - a.prior).slice(0, MAX_SIGNATURE_CANDIDATES);
      for (const x of members) { const c = cand(x.id); c.sig = qSigs.get(x.key); c.sigKey = x.key; }
      for (const c of cands.values()) {
        const m = c.sig ? state.get(c.id) : undefined;
        if (m) this.judge(c, m, qDetails, qErrors, q.file);
      }
    }

    // 3. Meaning (vectors), when an embedder is available: a full search, or a rescore of the candidates.
    const { vectors, embedQuery, vectorOf } = this.deps;
    const hasVectors = !!embedQuery && (!!vectors || !!vectorOf);
    if (hasVectors && text.trim()) {
      // A model embeds the query's error text, not raw output; hashed vectors see the words BM25 sees.
      const v = await embedQuery!(vectors ? embeddingText(text) : text).catch(() => undefined);
      if (v && vectors) {
        for (const h of vectors.search(v, poolSize)) if (h.score > 0) cand(h.id).cos = h.score;
      } else if (v && vectorOf) {
        // Only the front runners: the vector weight cannot lift a candidate from far behind.
        const front = [...cands.values()].sort((a, b) => (b.sig ? 1 : 0) + b.lex - ((a.sig ? 1 : 0) + a.lex)).slice(0, Math.max(30, k * 6));
        for (const c of front) { const w = vectorOf(c.id); if (w) c.cos = Math.max(0, cosine(v, w)); }
      }
    }
    const model = hasVectors && !!vectors;
    // One item per piece of knowledge: an episode whose lesson is live stands behind that lesson, which
    // takes its match (and is judged on its own details: the test, the module).
    const lessonOf = this.deps.lessonOfEpisode ?? (() => { const map = this.episodeLessons(); return (id: string) => map.get(id); })();
    for (const c of [...cands.values()]) {
      const lessonId = lessonOf(c.id);
      const lesson = lessonId ? state.get(lessonId) : undefined;
      if (!lessonId || state.get(c.id)?.kind !== 'episode') continue;
      if (!keep(lesson)) continue;
      cands.delete(c.id);
      const had = cands.get(lessonId);
      const lc = had ?? cand(lessonId);
      if (!lc.sig && c.sig) { lc.sig = c.sig; lc.sigKey = c.sigKey; lc.details = undefined; this.judge(lc, lesson, qDetails, qErrors, q.file); }
      if (c.lex > lc.lex) { lc.lex = c.lex; lc.terms = c.terms; }
      lc.cos = Math.max(lc.cos, c.cos);
    }
    // A lesson an agent wrote by the failing test's name has no signature in common with the runner's raw
    // output (its generic assertion message is not the lesson); the test's name says it is the same failure.
    const testNames = failingTestNames(qDetails);
    let names: string[] | undefined;
    const quoted = () => (names ??= quotedNames(primaryError(text)?.message));
    const scored: Scored[] = [];
    for (const c of cands.values()) {
      const m = state.get(c.id);
      if (!keep(m)) continue;
      if (!c.sig && c.lex === 0 && c.cos < MIN_SIMILAR) continue;
      if (!c.sig && testNames.length) c.test = namesFailingTest(m, testNames, this.detailsOf(m));
      if (!c.sig && !c.test && qSigs.size && proseLesson(m)) c.says = saysError(m, this.proseOf(m), qSigs.keys(), qDetails, quoted());
      let own: number | undefined;
      if (!c.sig && !c.test && !c.says && !proseLesson(m)) {
        own = this.ownCoverage(m, queryWords);
        // The memory's error code (SC1072, TS2322, E0433) in the query with its whole message: the same error
        // in another output format (the CLI's report of what the editor showed), whose key the query lacks.
        const code = codeOf(memorySignature(m) ?? '');
        if (own !== undefined && own >= MIN_OWN_COVERAGE && /\d/.test(code) && queryWords.has(code.toLowerCase())) { c.sig = code; own = undefined; }
      }
      const r = this.score(m, c, now, hasVectors, scopeOf(m).spec, meaning, model);
      if (own !== undefined) r.evidence.ownCoverage = own;
      scored.push(r);
    }
    belowExact(scored);
    scored.sort((a, b) => b.score - a.score || b.spec - a.spec || a.memory.id.localeCompare(b.memory.id));
    specificFirst(scored);

    const out: Scored[] = [];
    // Proactive surfaces see only what passes the gate; the floor is then taken from the best of those.
    const eligible = q.proactive ? scored.filter(r => isStrong(r.evidence)) : scored;
    // Far weaker than the best hit means it matched on filler ("not", "error"): noise, not memory.
    const floor = (eligible[0]?.score ?? 0) * RELATIVE_FLOOR;
    for (const r of eligible) {
      if (out.length >= k || r.score < floor) break;
      // Checked in rank order before a memory takes a place, so a stale one leaves room for the next.
      if (await this.staleReason(r.memory, q)) continue;
      out.push(r);
    }

    // Constraints in scope always come, even past the cap (and even when no word matched).
    const included = new Set(out.map(r => r.memory.id));
    let extra = 0;
    const byId = new Map(scored.map(r => [r.memory.id, r]));
    const constraints = new Set<string>();
    for (const id of this.constraintIds()) {
      if (extra >= MAX_EXTRA_CONSTRAINTS) break;
      if (included.has(id)) continue;
      const m = state.get(id);
      if (!keep(m)) continue;
      if (!q.file && m.scope.length) continue; // "in scope" needs a file unless the constraint applies everywhere
      if (await this.staleReason(m, q)) continue;
      const r = byId.get(id) ?? this.score(m, { id, lex: 0, terms: [], cos: 0 }, now, hasVectors, scopeOf(m).spec, meaning, model);
      // Unasked, a constraint still needs evidence that it concerns this error: quiet beats noisy.
      if (q.proactive && !isStrong(r.evidence)) continue;
      out.push(r);
      constraints.add(id);
      extra++;
    }
    // Reasons are worded only for what is returned (surface words cost a tokenize per query word).
    const surface = surfaceMap(text);
    return out.map(r => {
      const reasons = this.explain(r, q, surface);
      if (constraints.has(r.memory.id) && !reasons.some(x => x.kind === 'constraint')) reasons.unshift({ kind: 'constraint' });
      const result: RecallResult = { memory: r.memory, score: r.score, reasons };
      if (!isStrong(r.evidence)) result.weak = true;
      return result;
    });
  }

  /** A check that fails says nothing: the memory stays (as before any check existed). */
  private async staleReason(m: Memory, q: RecallQuery): Promise<string | undefined> {
    const check = q.isStale ?? this.deps.isStale;
    if (!check) return undefined;
    try { return await check(m); } catch { return undefined; }
  }

  private passes(m: Memory, q: RecallQuery, owners: Set<OwnerScope>, now: number): boolean {
    if (m.deleted) return false;
    if (!owners.has(m.owner?.scope ?? 'workspace')) return false;
    if (m.expiresAt !== undefined && m.expiresAt < now) return false;
    if (m.quarantined && !q.includeQuarantined) return false;
    // A superseded fact is history (the newer value answers), unless the newer one was forgotten.
    if (m.kind === 'fact' && m.supersededBy && this.deps.state.has(m.supersededBy)) return false;
    if (q.kinds?.length && !q.kinds.includes(m.kind)) return false;
    if (q.outcome && !outcomeMatches(m, q.outcome)) return false;
    return true;
  }

  private score(m: Memory, c: Candidate, now: number, hasVectors: boolean, spec: number, meaning: QueryMeaning, model: boolean): Scored {
    const textRel = hasVectors ? 0.75 * c.lex + 0.25 * Math.max(0, c.cos) : c.lex;
    const nearMiss = !!c.sig && c.details?.same === false;
    // A signature match outranks any word match of equal strength; words still order signature twins.
    // Another module / type / test ranks below the exact error (belowExact), and among memories of one
    // error the tighter scope goes first (specificFirst).
    const relevance = c.sig ? (nearMiss ? 0.45 : 0.55) + 0.45 * textRel : c.test || c.says ? 0.55 + 0.45 * textRel : 0.85 * textRel;
    const score = clamp01(relevance * this.prior(m, now, spec));
    let weight = 0;
    for (const t of new Set(c.terms)) weight += meaning.idf.get(t) ?? 0;
    let said = 0;
    for (const t of meaning.message) if (c.terms.includes(t)) said++;
    const evidence: RecallEvidence = {
      signature: c.sig ? (nearMiss ? 'other-details' : 'same') : undefined,
      ...(c.test ? { failingTest: true } : {}),
      ...(c.says ? { saysError: true } : {}),
      otherError: !c.sig && meaning.isError && !!memorySignature(m),
      coverage: meaning.total > 0 ? weight / meaning.total : 0,
      messageCoverage: meaning.message.size ? said / meaning.message.size : undefined,
      matched: new Set(c.terms).size,
      similarity: Math.max(0, c.cos),
      model,
      ...(m.kind === 'lesson' && m.unexplained ? { unexplained: true } : {}),
    };
    return { memory: m, score: round3(score), spec, c, evidence };
  }

  /**
   * Whether a signature match is this problem or a near miss: the details errorDetails reads (module,
   * types, test) when both sides have them, else, for a memory whose fix is a concrete edit or command,
   * the values the query's error names (namedValues.ts).
   */
  private judge(c: Candidate, m: Memory, qDetails: ErrorDetail[], qErrors: Map<string, QueryError>, file: string | undefined): void {
    if (qDetails.length) c.details = compareDetails(qDetails, this.detailsOf(m));
    if (c.details || !c.sigKey || !concreteFix(m)) return;
    const e = qErrors.get(c.sigKey);
    const values = e ? namedValues(e.message, signatureTextOf(c.sigKey), file) : [];
    if (!values.length) return;
    const missing = otherName(values, this.wordsOf(m));
    if (missing) c.details = { same: false, differ: { kind: 'symbol', noun: 'name', value: missing } };
  }

  /**
   * Share (idf-weighted) of the words of the memory's own error message (its signature text, without the "x exited with
   * code n:" a command's failure is framed in) that the query has; undefined when it has none.
   */
  private ownCoverage(m: Memory, queryWords: ReadonlySet<string>): number | undefined {
    const key = memorySignature(m);
    if (!key) return undefined;
    let words = this.ownWordCache.get(key);
    if (!words) {
      words = new Set(tokenize(signatureTextOf(key).replace(/^.*?\bexited with code <n>:\s*/, '').replace(/<[a-z]+>/g, ' ')));
      if (this.ownWordCache.size >= MAX_DETAIL_CACHE) this.ownWordCache.clear();
      this.ownWordCache.set(key, words);
    }
    // A query with fewer words than the message is a fragment of it ("Cannot index array with"), not
    // another error: only one as long as the message can show it lacks the message's own words.
    if (!words.size || queryWords.size < words.size) return undefined;
    // Weighted by rarity: the word only this memory's error has ("emial") is the one that says which error.
    let had = 0, all = 0;
    for (const w of words) {
      const idf = this.deps.lexical.idf(w) || 1;
      all += idf;
      if (queryWords.has(w)) had += idf;
    }
    return all > 0 ? had / all : undefined;
  }

  /** The words of a memory's own error text (namedValues.ts), cached per memory version. */
  private wordsOf(m: Memory): Set<string> {
    const hit = this.wordCache.get(m.id);
    if (hit && hit.at === m.updatedAt) return hit.words;
    const raw = m.kind === 'lesson' ? m.errorText : m.kind === 'episode' ? m.trigger : '';
    const words = namedWords(raw ?? '');
    if (this.wordCache.size >= MAX_DETAIL_CACHE) this.wordCache.clear();
    this.wordCache.set(m.id, { at: m.updatedAt, words });
    return words;
  }

  /** A prose lesson's sentences normalised as signatures are, cached per memory version. */
  private proseOf(m: Memory): string[] {
    const hit = this.proseCache.get(m.id);
    if (hit && hit.at === m.updatedAt) return hit.texts;
    const texts = proseTexts(m);
    if (this.proseCache.size >= MAX_DETAIL_CACHE) this.proseCache.clear();
    this.proseCache.set(m.id, { at: m.updatedAt, texts });
    return texts;
  }

  /** Details of a memory's own error text, cached per memory version (signature matches only). */
  private detailsOf(m: Memory): ErrorDetail[] {
    const raw = m.kind === 'lesson' ? m.errorText : m.kind === 'episode' ? m.trigger : '';
    if (!raw) return [];
    const hit = this.detailCache.get(m.id);
    if (hit && hit.at === m.updatedAt) return hit.details;
    const details = errorDetails(raw);
    if (this.detailCache.size >= MAX_DETAIL_CACHE) this.detailCache.clear();
    this.detailCache.set(m.id, { at: m.updatedAt, details });
    return details;
  }

  /** Everything but relevance: trust × recency × importance × scope fit. */
  private prior(m: Memory, now: number, spec: number): number {
    const trust = 0.55 + 0.35 * workspaceConfidence(m, this.deps.workspaceId) + 0.1 * (LADDER_RANK[m.maturity] ?? 0) / 3;
    const last = Math.max(m.updatedAt || 0, m.lastAccessedAt || 0, m.createdAt || 0);
    const age = Math.max(0, now - last);
    const recency = 0.8 + 0.2 * Math.pow(0.5, age / RECENCY_HALF_LIFE);
    const importance = 0.8 + 0.2 * clamp01(m.importance ?? 0.5);
    // Tighter scope wins among near-equals (scope twins), without overriding a clearly better match.
    const scopeBonus = spec < 0 ? UNKNOWN_PLACE_FACTOR : 1 + 0.08 * Math.min(1, spec / 300);
    return trust * recency * importance * scopeBonus;
  }

  private explain(r: Scored, q: RecallQuery, surface: Map<string, string>): RecallReason[] {
    const { memory: m, c } = r;
    const why: RecallReason[] = [];
    if (c.sig && c.details?.same === false) why.push({ kind: 'nearMiss', code: c.sig, noun: c.details.differ.noun, value: c.details.differ.value.slice(0, 80) });
    else if (c.sig) why.push({ kind: 'signature', code: c.sig });
    if (q.file && m.scope.length) {
      const globs = m.scope.filter(g => scopeMatches([g], q.file));
      if (globs.length) why.push({ kind: 'scope', globs });
    }
    if (c.terms.length) {
      // Only words that mean something to a person: no numbers, no two-letter fragments.
      const words = [...new Set(this.rarestFirst(c.terms).filter(t => surface.has(t)).map(t => surface.get(t)!))].filter(shownWord).slice(0, 8);
      if (words.length) why.push({ kind: 'words', words });
    }
    if (c.cos >= MIN_SIMILAR) why.push({ kind: 'similar', score: c.cos });
    if (m.maturity === 'constraint' && q.file) why.push({ kind: 'constraint' });
    else if (m.maturity !== 'observation') why.push({ kind: 'maturity', maturity: m.maturity, confidence: workspaceConfidence(m, this.deps.workspaceId) });
    if (m.flagged?.length) why.push({ kind: 'flagged' });
    return why;
  }

  private rarestFirst(terms: string[]): string[] {
    return terms.map(t => ({ t, idf: this.deps.lexical.idf(t) })).sort((a, b) => b.idf - a.idf).map(x => x.t);
  }

  /** Memories by key, and the keys sharing a message text: the index's own lookup when it has one. */
  private signatures(): { idsWith(key: string): Iterable<string>; keysWithText(text: string): Iterable<string> } {
    const index = this.deps.bySignature;
    return {
      idsWith: key => index.get(key) ?? [],
      keysWithText: text => (index.keysWithText ? index.keysWithText(text) : this.signatureTexts(index).get(text) ?? []),
    };
  }

  /** Normalised message text → signature keys carrying it, rebuilt when the index changes. */
  private signatureTexts(map: SignatureIndex): Map<string, string[]> {
    const rev = this.deps.state.revision;
    if (this.textCache?.revision !== rev || this.textCache.size !== map.size) {
      const byText = new Map<string, string[]>();
      for (const key of map.keys()) {
        const t = signatureTextOf(key);
        if (t.length < 12) continue; // too generic to mean "the same error"
        const list = byText.get(t);
        if (list) list.push(key); else byText.set(t, [key]);
      }
      this.textCache = { revision: rev, size: map.size, byText };
    }
    return this.textCache.byText;
  }

  /** Ids of constraints, cached per state revision (the list is short; scanning every memory is not). */
  private constraintIds(): readonly string[] {
    if (this.deps.constraintIds) return this.deps.constraintIds();
    const rev = this.deps.state.revision;
    if (this.constraintCache?.revision !== rev) {
      const ids = [...this.deps.state.all()].filter(m => m.maturity === 'constraint').map(m => m.id);
      this.constraintCache = { revision: rev, ids };
    }
    return this.constraintCache.ids;
  }
}

/**
 * Another module / type / test ranks below the exact error, whatever trust or recency say: its old fix
 * is at best a hint here. Scores stay the order (callers merge result lists by score).
 */
function belowExact(scored: Scored[]): void {
  let minExact = Infinity;
  for (const r of scored) if (r.evidence.signature === 'same') minExact = Math.min(minExact, r.score);
  if (minExact === Infinity) return;
  for (const r of scored) {
    if (r.evidence.signature === 'other-details' && r.score >= minExact) r.score = round3(Math.max(0, minExact - 0.001));
  }
}

/**
 * Specific beats general: of memories about the same error (one signature, matched alike), the one whose
 * scope covers the file more tightly goes first, whatever the length of their texts (a longer pasted
 * trace shares more words, not more meaning). The group keeps the places and scores it had, so results
 * stay ordered by score; only who holds them changes.
 */
function specificFirst(scored: Scored[]): void {
  const groups = new Map<string, number[]>();
  scored.forEach((r, i) => {
    const sig = r.evidence.signature && memorySignature(r.memory);
    if (!sig) return;
    const key = `${r.evidence.signature}\n${sig}`;
    const g = groups.get(key);
    if (g) g.push(i); else groups.set(key, [i]);
  });
  for (const at of groups.values()) {
    if (at.length < 2) continue;
    const members = at.map(i => scored[i]);
    const scores = members.map(r => r.score);
    members.sort((a, b) => b.spec - a.spec || b.score - a.score);
    at.forEach((i, n) => { scored[i] = members[n]; scored[i].score = scores[n]; });
  }
}

/**
 * The memory's fix is what was done (a recorded change or command), not a sentence about the cause: it
 * applies where the error names the same things (`use std::collections::HashMap;` does not import
 * BTreeSet). A lesson in an agent's own words ("link with -lm") speaks of the kind of error, whatever
 * it names.
 */
function concreteFix(m: Memory): boolean {
  if (m.kind === 'episode') return true;
  return m.kind === 'lesson' && (!!m.change?.trim() || !!m.commands?.length);
}

function outcomeMatches(m: Memory, wanted: 'success' | 'failure'): boolean {
  const o = m.kind === 'episode' ? m.outcome : m.kind === 'lesson' ? (m.outcome ?? 'success') : undefined;
  if (!o) return false;
  return wanted === 'success' ? o === 'success' || o === 'partial' : o === 'failure' || o === 'abandoned';
}

/** Ids filed under a memory's signature (kept by the store alongside the lexical index). */
export function indexSignature(map: Map<string, Set<string>>, m: Memory): void {
  const key = memorySignature(m);
  if (!key) return;
  let set = map.get(key);
  if (!set) { set = new Set(); map.set(key, set); }
  set.add(m.id);
}

export function unindexSignature(map: Map<string, Set<string>>, m: Memory): void {
  const key = memorySignature(m);
  if (!key) return;
  const set = map.get(key);
  set?.delete(m.id);
  if (set && !set.size) map.delete(key);
}

function cosine(a: Float32Array, b: Float32Array): number {
  const n = Math.min(a.length, b.length);
  let dot = 0, na = 0, nb = 0;
  for (let i = 0; i < n; i++) { dot += a[i] * b[i]; na += a[i] * a[i]; nb += b[i] * b[i]; }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

function clamp01(x: number): number { return x < 0 ? 0 : x > 1 ? 1 : x; }
function round3(x: number): number { return Math.round(x * 1000) / 1000; }
