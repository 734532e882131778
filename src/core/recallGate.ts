// The one decision of whether a recalled memory is strong enough to show unasked: next to an error in
// the hover, in "Relevant now", in the status-bar count, in context a chat adds by itself, and in
// `engram recall --proactive`. Search and /recall stay lenient and only mark what this gate rejects as
// weak. Calibrated on test/fixtures/recall/set.json (real tool output, including errors no memory
// answers); bench/recall-quality.mjs prints its false-alarm rate and hit@1 next to the old behaviour.

/** What recall found connecting a query and one memory. */
export interface RecallEvidence {
  /**
   * 'same': the query carries the memory's error signature and nothing tells them apart;
   * 'other-details': the same signature, but another module, type or test (a near miss);
   * undefined: no signature in common.
   */
  signature?: 'same' | 'other-details';
  /** No signature in common, but the memory names the test the query reports failing (recall/failingTest.ts). */
  failingTest?: boolean;
  /** No signature in common, but the lesson's prose says the query's error and its details (recall/proseError.ts). */
  saysError?: boolean;
  /** The query is an error and the memory is about another one (its signature differs). */
  otherError?: boolean;
  /** Share of the query's meaning (idf-weighted words, unknown words counted at full weight) the memory has. */
  coverage: number;
  /** Share of the query's error-message words (its signature's words) the memory has; undefined when the query has no error. */
  messageCoverage?: number;
  /**
   * Without a signature in common: share of the memory's own error-message words the query has (a memory
   * about another error shares the query's words but has its own: "cannot index array" for "cannot index
   * string", a column "emial" for "phone"). Undefined when the memory has no error message of its own.
   */
  ownCoverage?: number;
  /** How many distinct query words the memory has. */
  matched: number;
  /** Cosine with the query when a real embedding model is loaded (0 otherwise). */
  similarity: number;
  /** The embedder is a real model (hashed vectors see only the words BM25 sees, so they prove nothing more). */
  model: boolean;
  /** The memory is a lesson whose fix was never observed: it has nothing to follow. */
  unexplained?: boolean;
}

/**
 * Without a shared signature, words alone must carry most of the query's meaning. Calibrated so that
 * no family absent from the store passes (test/unit/recallGate.test.ts).
 */
export const MIN_COVERAGE = 0.6;
/** ...and, when the query is an error, nearly every word of its message: shared stack or code words are not the error. */
export const MIN_MESSAGE_COVERAGE = 0.8;
const MIN_MATCHED = 3;
/** ...and nearly every word of the memory's own error message, when it has one. */
export const MIN_OWN_COVERAGE = 0.9;
/** Cosine a real sentence model gives near-paraphrases; hashed vectors never count. */
const MIN_MODEL_SIMILARITY = 0.8;

/** True when the evidence is strong enough to show the memory without being asked. */
export function isStrong(e: RecallEvidence): boolean {
  // "It cleared, nobody saw how" is no answer to give unasked, however well it matches: an unexplained
  // lesson is never a proactive answer, first or otherwise (search still finds it, marked weak).
  if (e.unexplained) return false;
  if (e.signature === 'same') return true;
  // Same error, another module / type / test: the old fix is likely wrong here, so never unasked.
  if (e.signature === 'other-details') return false;
  // A test runner's assertion message is the same for every test; the failing test's name tells which
  // failure it is, and a memory naming it is about this one (another test is a near miss: no name match).
  if (e.failingTest) return true;
  // An agent's sentence that contains the error's message, with the module / types / test it names.
  if (e.saysError) return true;
  // Which error it is, signatures decide; shared words ("no such file", "cannot find") do not make two
  // errors one. Words speak for memories without an error (facts, rules) or queries that are not one.
  if (e.otherError) return false;
  const saysTheError = e.messageCoverage === undefined || e.messageCoverage >= MIN_MESSAGE_COVERAGE;
  if (!saysTheError || e.matched < MIN_MATCHED) return false;
  if (e.ownCoverage !== undefined && e.ownCoverage < MIN_OWN_COVERAGE) return false;
  return e.coverage >= MIN_COVERAGE || (e.model && e.similarity >= MIN_MODEL_SIMILARITY);
}
