// Code-aware tokens and an incremental BM25 index: the model-free half of recall. Error output is full
// of identifiers, paths and codes, so tokens split camelCase/snake_case/paths but keep codes such as
// TS2322, E0382 or ENOENT whole; Korean text is mapped through the glossary and kept as syllable bigrams.
import { englishParaphrases, hasHangul, koreanToEnglish } from './glossary';

const STOP = new Set((
  'a an the is are was were be been being am to of in on at by for from with without and or but if then so ' +
  'as it its this that these those there here i me my we our you your he she they them their what which who whom ' +
  'why how when where do does did doing done have has had having can could should would will shall may might must ' +
  'get got just also than too very about into over under again some any all each other such only own same ' +
  'up down off more most no nor please help thing things way getting keep keeps ' +
  'happen happens happened anyone someone something know want need trying try tried fix fixed say says'
).split(/\s+/));

// Codes compilers and runtimes print, kept whole: TS2322, E0382, CS1002, C2065, LNK2019, ENOENT, EADDRINUSE, ERR_REQUIRE_ESM.
const CODE_RE = /\b(?:[A-Z]{1,4}\d{3,5}|E[A-Z]{3,15}|ERR_[A-Z0-9_]{3,40})\b/g;
const WORD_RE = /[\p{L}\p{N}_$]+/gu;
const HANGUL_RUN = /[\uac00-\ud7a3]+/g;
const DIGIT = /\d/;
const ALL_DIGITS = /^\d+$/;
/** A number with a unit (14ms, 2s, 512kb): a timing or size, not a meaning. */
const MEASURE = /^\d+(?:ms|s|m|h|kb|mb|gb|b)$/;
const S_KEEP = /(ss|us|is|ys)$/;
const DOUBLED = /([bdgmnprt])\1$/;
const ID_SEPARATORS = /[_$]/g;

// Noise that says where an error happened, not what it is: stack frames inside the runtime or
// dependencies, location lines, runtime banners, and the folders of paths. Dropped before words are
// taken, on both sides (memories and queries), so a shared Node internal never decides relevance and
// never shows up as a reason.
const JS_FRAME = /^\s+at (?:(?:async )?([^\s()][^()\n]*?) \(([^()\n]*)\)|(\S+:\d+(?::\d+)?))(?: \{)?$/;
const PY_FRAME = /^\s*File "([^"\n]*)", line \d+(?:, in (\S+))?$/;
const INTERNAL_PLACE = /^(?:node:|internal\/)|node_modules|<anonymous>|\/lib\/python\d|site-packages|<frozen |java\.base\/|jdk\.internal|\/rustc\//;
const NOISE_LINE = /^\s*(?:-->\s|Node\.js v\d|node:internal\/|(?:file:\/\/)?\/\S*:\d+$|[~^]+$|- \/)/;
const INTERNAL_HEADER = /^(?:node:[\w/]+|<[\w_]+>):\d+$/;
const GENERIC_FRAME_NAME = /<anonymous>|^(?:Object|Context|Module|Function|process)\.|^(?:new )?Promise\b|^<module>$/;
const GENERIC_FOLDER = /^(?:src|lib|libs|dist|build|out|bin|app|apps|tmp|temp|var|usr|home|root|users|opt|node_modules|site-packages|packages|\.\w+|[\w.-]*\d[\w.-]*)$/i;
const FILE_EXT = /\b([\w-]+)\.(?:[cm]?[jt]sx?|json|py|rs|c|cc|cpp|cxx|h|hpp|java|class|o|so|toml|lock|ya?ml|md|txt|sh|env|html|css|csv|sql|go|rb|cs)\b/gi;

/**
 * Error text without runtime-internal frames and location lines (see above). Absolute paths keep only
 * their file name (the folders are someone's machine); relative ones (`netutil/socket.h`, `@lib/dates`)
 * name what is missing and keep their folders, unless `folders` is false (words shown to people).
 */
export function meaningfulText(text: string, folders = true): string {
  const hasPath = text.includes('/') || text.includes('\\');
  const hasFile = FILE_EXT_TEST.test(text);
  // Plain questions (no newline, no path) skip the line work: tokenize runs for every memory at open.
  if (!text.includes('\n') && !hasPath && !hasFile) return text;
  const out: string[] = [];
  let skipSource = false;
  let inInternalFrame = false;
  for (const line of text.split('\n')) {
    // Cheap first-character checks keep the per-line regexes off ordinary lines.
    const c = line.charCodeAt(0);
    const indented = c === 32 || c === 9;
    // Python prints the source of each frame indented below it: the runtime's own source is internal too.
    if (inInternalFrame && indented && /^\s{4,}\S/.test(line) && !PY_FRAME.test(line)) continue;
    inInternalFrame = false;
    // Node prints "node:fs:448" and then the runtime's own source line that threw: both internal.
    if (skipSource) { skipSource = false; continue; }
    if ((c === 110 /* n */ || c === 60 /* < */) && INTERNAL_HEADER.test(line)) { skipSource = true; continue; }
    if (indented) {
      let m = line.includes('at ') ? JS_FRAME.exec(line) : null;
      if (m) {
        // A frame of the user's own code keeps its function name (it says what ran); the place goes.
        const name = m[1];
        if (name && m[2] !== undefined && !INTERNAL_PLACE.test(m[2]) && !GENERIC_FRAME_NAME.test(name)) out.push(name.replace(/ \[as [^\]]*\]$/, ''));
        continue;
      }
      if (line.includes('File "') && (m = PY_FRAME.exec(line))) {
        inInternalFrame = INTERNAL_PLACE.test(m[1]);
        if (m[2] && !inInternalFrame && !GENERIC_FRAME_NAME.test(m[2])) out.push(m[2]);
        continue;
      }
    }
    if (NOISE_LINE.test(line)) continue;
    out.push(line);
  }
  let s = out.join('\n');
  if (hasPath) s = replacePaths(s, folders);
  if (hasFile) s = s.replace(FILE_EXT, '$1');
  return s;
}
const FILE_EXT_TEST = /\.(?:[cm]?[jt]sx?|json|py|rs|c|h|java|toml|ya?ml|sh|go|rb|cs)\b/i;

/** Characters a path is made of (letters, digits, `_.@~+-:`); slashes join them. */
function isPathChar(c: number): boolean {
  return (c >= 48 && c <= 58) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 64 || c === 126 || c === 43 || c === 45 || c === 47 || c === 92 || c > 127;
}

/**
 * Each run of path characters holding a slash becomes baseName(run). A scan from each slash, not a
 * regex: a regex would retry the whole word from every starting character (quadratic in long words).
 */
function replacePaths(s: string, folders: boolean): string {
  let out = '';
  let done = 0;
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c !== 47 && c !== 92) { i++; continue; }
    let a = i;
    while (a > done && isPathChar(s.charCodeAt(a - 1))) a--;
    let b = i + 1;
    while (b < s.length && isPathChar(s.charCodeAt(b))) b++;
    const run = s.slice(a, b);
    // "a/b" needs a name on a side of the slash; a lone "/" or "//" is punctuation.
    if (/[\w@~]/.test(run)) { out += s.slice(done, a) + baseName(run, folders); done = b; }
    i = b;
  }
  return done ? out + s.slice(done) : s;
}

/** The last segment of a path, without its extension: the part that names something. */
function baseName(p: string, folders: boolean): string {
  if (/^(?:node:|internal\/)/.test(p)) return ' ';
  p = p.replace(/(?::\d+)+:?$/, ''); // src/app.ts:3:5 → src/app.ts
  if (folders && !/^(?:[A-Za-z]:|file:|[~\\/])/.test(p)) return p.replace(/\.\w+$/, '');
  const segs = p.split(/[\\/]/).filter(Boolean);
  const last = (segs[segs.length - 1] ?? '').replace(/\.[\w]+$/, '');
  // An absolute path: its file name, and for relevance the folder holding it when that names something
  // (templates/, migrations/), never the machine's part (/home/dev, /tmp, src/).
  const parent = folders ? segs[segs.length - 2] ?? '' : '';
  return ' ' + (parent && !GENERIC_FOLDER.test(parent) ? parent + ' ' : '') + last + ' ';
}

/** Light English stemming: enough that error/errors, resolve/resolved/resolving meet. */
export function stem(w: string): string {
  if (w.length <= 3 || DIGIT.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y';
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !S_KEEP.test(w)) w = w.slice(0, -1);
  if (w.endsWith('ing') && w.length > 6) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4) w = w.slice(0, -2);
  if (w.endsWith('e') && w.length > 3) w = w.slice(0, -1);
  // resolv/resolved both reach here as "resolv"; doubled consonants from -ing/-ed (mapped/map) collapse.
  if (w.length > 4 && DOUBLED.test(w)) w = w.slice(0, -1);
  return w;
}

// Opening a store tokenizes every memory, and error text repeats the same few thousand words, so the
// word → token step (lowercase, filters, stemming) is memoised. '' marks a dropped word. Bounded: a
// pathological store of unique words clears it rather than growing without limit.
const WORD_CACHE_MAX = 100_000;
const wordCache = new Map<string, string>();

function wordToken(raw: string): string {
  let tok = wordCache.get(raw);
  if (tok !== undefined) return tok;
  tok = '';
  const lower = raw.toLowerCase();
    // Over 40 characters: hashes, base64 blobs, noise for ranking.
  // Numbers alone (line, column, position, pid) never say what an error is; codes keep theirs (TS2322).
  if (lower.length >= 2 && !ALL_DIGITS.test(lower) && !MEASURE.test(lower) && !STOP.has(lower) && lower.length <= 40) {
    tok = stem(lower);
  }
  if (wordCache.size >= WORD_CACHE_MAX) wordCache.clear();
  wordCache.set(raw, tok);
  return tok;
}

function pushWord(out: string[], raw: string): void {
  const tok = wordToken(raw);
  if (tok) out.push(tok);
}

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLowerOrDigit = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
const isLower = (c: number) => c >= 97 && c <= 122;
const isSep = (c: number) => c === 95 /* _ */ || c === 36 /* $ */;

/**
 * Pushes the parts of an identifier: fooBarBaz, foo_bar, HTTPServer → http server, v8Flags → v8 flags,
 * plus the whole identifier when it has several parts. One scan instead of regex replace + split: this
 * runs for every word of every memory when a store opens. Boundaries: a capital after a lowercase letter
 * or digit, the last capital of a capital run followed by a lowercase letter, and `_`/`$`.
 */
function pushIdentifier(out: string[], word: string): void {
  let toks = identCache.get(word);
  if (!toks) {
    toks = [];
    splitIdentifier(toks, word);
    if (identCache.size >= WORD_CACHE_MAX) identCache.clear();
    identCache.set(word, toks);
  }
  for (let i = 0; i < toks.length; i++) out.push(toks[i]);
}

/** Word (as matched in the text) → its tokens: one lookup per word for the words every memory repeats. */
const identCache = new Map<string, string[]>();

function splitIdentifier(out: string[], word: string): void {
  const n = word.length;
  let parts = 0;
  let start = -1; // start of the current part, -1 between parts
  let first = ''; // the first part, pushed late: a single-part word is pushed whole instead
  let prev = -1;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? word.charCodeAt(i) : -1;
    let boundary = false;
    if (c === -1 || isSep(c)) boundary = true;
    else if (start >= 0 && isUpper(c) && (isLowerOrDigit(prev) || (isUpper(prev) && i + 1 < n && isLower(word.charCodeAt(i + 1))))) boundary = true;
    if (boundary && start >= 0) {
      const part = word.slice(start, i);
      if (parts === 0) first = part;
      else { if (parts === 1) pushWord(out, first); pushWord(out, part); }
      parts++;
      start = -1;
    }
    if (c !== -1 && !isSep(c) && start < 0) start = i;
    prev = c;
  }
  if (parts > 1) {
    // The whole identifier too, so "ModuleNotFoundError" or "useState" also matches exactly.
    if (n <= 40) pushWord(out, word.replace(ID_SEPARATORS, ''));
  } else {
    pushWord(out, word);
  }
}

/**
 * Tokens for indexing and querying. Deterministic; the same function serves memories and queries so the
 * two always meet in the same vocabulary.
 */
export function tokenize(text: string): string[] {
  if (!text) return [];
  const out: string[] = [];
  text = meaningfulText(text);
  // One pass both collects the codes and blanks them out.
  const withoutCodes = text.replace(CODE_RE, code => { out.push(code.toLowerCase()); return ' '; });
  let latin = withoutCodes;
  if (hasHangul(withoutCodes)) {
    for (const w of koreanToEnglish(withoutCodes)) pushWord(out, w);
    HANGUL_RUN.lastIndex = 0;
    for (let m = HANGUL_RUN.exec(withoutCodes); m; m = HANGUL_RUN.exec(withoutCodes)) {
      const s = m[0];
      for (let i = 0; i + 1 < s.length; i++) out.push(s.slice(i, i + 2));
    }
    latin = withoutCodes.replace(HANGUL_RUN, ' ');
  }
  WORD_RE.lastIndex = 0;
  for (let m = WORD_RE.exec(latin); m; m = WORD_RE.exec(latin)) pushIdentifier(out, m[0]);
  for (const w of englishParaphrases(latin.toLowerCase())) pushWord(out, w);
  return out;
}

export interface Scored { id: string; score: number }

/**
 * Okapi BM25 over an inverted index, with add/remove in place (no rebuild). Terms are interned to small
 * ids and postings are flat arrays of small integers ([doc, count, doc, count, ...], in the order
 * documents were added), not a Map per term and per document: opening a store adds every memory, and
 * tens of thousands of small Maps were most of that time and of the garbage. Removed doc numbers and
 * term ids are recycled.
 */
export class Bm25Index {
  private readonly k1 = 1.2;
  private readonly b = 0.75;
  private readonly termIds = new Map<string, number>();
  private readonly termOf: (string | undefined)[] = [];
  private readonly freeTerms: number[] = [];
  private readonly postings: number[][] = [];
  /** Per doc number: [termId, count, termId, count, ...] for its distinct terms. */
  private readonly docTerms: (number[] | undefined)[] = [];
  private readonly docLen: number[] = [];
  private readonly idOf: (string | undefined)[] = [];
  private readonly numOf = new Map<string, number>();
  private readonly free: number[] = [];
  private totalLen = 0;
  private acc = new Float64Array(0);
  /** Per term id, the count in the document being added (always zero between adds). */
  private scratch = new Int32Array(256);

  get size(): number { return this.numOf.size; }

  has(id: string): boolean { return this.numOf.has(id); }

  add(id: string, text: string): void {
    this.addTokens(id, tokenize(text));
  }

  addTokens(id: string, tokens: string[]): void {
    if (this.numOf.has(id)) this.remove(id);
    const n = this.free.pop() ?? this.idOf.length;
    const distinct: number[] = [];
    for (const t of tokens) {
      let k = this.termIds.get(t);
      if (k === undefined) {
        k = this.freeTerms.pop() ?? this.postings.length;
        this.termIds.set(t, k);
        this.termOf[k] = t;
        this.postings[k] = [];
        if (k >= this.scratch.length) {
          const grown = new Int32Array(Math.max(k + 1, this.scratch.length * 2));
          grown.set(this.scratch);
          this.scratch = grown;
        }
      }
      if (this.scratch[k]++ === 0) distinct.push(k);
    }
    const terms = new Array<number>(distinct.length * 2);
    for (let i = 0; i < distinct.length; i++) {
      const k = distinct[i];
      const c = this.scratch[k];
      this.scratch[k] = 0;
      this.postings[k].push(n, c);
      terms[2 * i] = k;
      terms[2 * i + 1] = c;
    }
    this.idOf[n] = id;
    this.docTerms[n] = terms;
    this.docLen[n] = tokens.length;
    this.numOf.set(id, n);
    this.totalLen += tokens.length;
  }

  remove(id: string): void {
    const n = this.numOf.get(id);
    if (n === undefined) return;
    const terms = this.docTerms[n];
    if (terms) {
      for (let i = 0; i < terms.length; i += 2) {
        const k = terms[i];
        const p = this.postings[k];
        for (let j = 0; j < p.length; j += 2) {
          // splice, not swap-with-last: postings keep insertion order, which breaks score ties.
          if (p[j] === n) { p.splice(j, 2); break; }
        }
        if (!p.length) {
          this.termIds.delete(this.termOf[k]!);
          this.termOf[k] = undefined;
          this.freeTerms.push(k);
        }
      }
    }
    this.totalLen -= this.docLen[n] ?? 0;
    this.docTerms[n] = undefined;
    this.idOf[n] = undefined;
    this.docLen[n] = 0;
    this.numOf.delete(id);
    this.free.push(n);
  }

  private postingsOf(token: string): number[] | undefined {
    const k = this.termIds.get(token);
    return k === undefined ? undefined : this.postings[k];
  }

  /** Inverse document frequency of a token (0 when unknown). */
  idf(token: string): number {
    const df = (this.postingsOf(token)?.length ?? 0) >> 1;
    if (!df) return 0;
    const N = this.size;
    return Math.log(1 + (N - df + 0.5) / (df + 0.5));
  }

  /** Top `n` documents for a query (text or tokens). Scores are raw BM25 (unbounded, > 0). */
  search(query: string | string[], n: number): Scored[] {
    const tokens = typeof query === 'string' ? tokenize(query) : query;
    return this.searchWithTerms(tokens, n).map(({ id, score }) => ({ id, score }));
  }

  /** Like `search`, also naming the query tokens each hit matched (for "why"). */
  searchWithTerms(tokens: string[], n: number): (Scored & { terms: string[] })[] {
    const N = this.size;
    if (!N || !tokens.length || n <= 0) return [];
    if (this.acc.length < this.idOf.length) this.acc = new Float64Array(Math.max(this.idOf.length, this.acc.length * 2, 64));
    const acc = this.acc;
    const avg = this.totalLen / N || 1;
    const qtf = new Map<string, number>();
    for (const t of tokens) qtf.set(t, (qtf.get(t) ?? 0) + 1);
    const touched: number[] = [];
    // Rare terms first. A very common term ("error", "type") only adds to documents a rarer term already
    // found, which keeps big stores fast and changes no ranking that matters: a document matching only
    // filler words would be dropped as noise anyway.
    const terms: { k: number; qc: number; p: number[] }[] = [];
    for (const [t, qc] of qtf) {
      const k = this.termIds.get(t);
      if (k !== undefined && this.postings[k].length) terms.push({ k, qc, p: this.postings[k] });
    }
    terms.sort((a, b) => a.p.length - b.p.length);
    const commonDf = Math.max(500, N * 0.15);
    for (const { k, qc, p } of terms) {
      const df = p.length >> 1;
      const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
      // Repeated query words count, but sub-linearly: a pasted stack trace repeats "at" frames.
      const qw = idf * (1 + Math.log(qc));
      if (df > commonDf && touched.length && touched.length < df) {
        // Only documents already found (acc > 0: every score term is positive). Whichever side is
        // shorter is walked; each document still gets this term's weight exactly once.
        if (touched.length * 16 < df) {
          for (const d of touched) {
            const c = countIn(this.docTerms[d]!, k);
            if (c) acc[d] += qw * c * (this.k1 + 1) / (c + this.k1 * (1 - this.b + this.b * this.docLen[d] / avg));
          }
        } else {
          for (let j = 0; j < p.length; j += 2) {
            const d = p[j];
            if (acc[d] === 0) continue;
            const c = p[j + 1];
            acc[d] += qw * c * (this.k1 + 1) / (c + this.k1 * (1 - this.b + this.b * this.docLen[d] / avg));
          }
        }
        continue;
      }
      for (let j = 0; j < p.length; j += 2) {
        const d = p[j], c = p[j + 1];
        const norm = c * (this.k1 + 1) / (c + this.k1 * (1 - this.b + this.b * this.docLen[d] / avg));
        if (acc[d] === 0) touched.push(d);
        acc[d] += qw * norm;
      }
    }
    const top = topN(touched, acc, n);
    const out = top.map(d => {
      const dt = this.docTerms[d]!;
      const terms: string[] = [];
      for (const t of qtf.keys()) {
        const k = this.termIds.get(t);
        if (k !== undefined && countIn(dt, k)) terms.push(t);
      }
      return { id: this.idOf[d]!, score: acc[d], terms };
    });
    for (const d of touched) acc[d] = 0;
    return out;
  }
}

/** Count of term `k` in a document's [termId, count, ...] list (0 when absent). */
function countIn(terms: number[], k: number): number {
  for (let i = 0; i < terms.length; i += 2) if (terms[i] === k) return terms[i + 1];
  return 0;
}

/** The n best doc numbers by score, without sorting every touched doc. */
function topN(docs: number[], score: Float64Array, n: number): number[] {
  if (docs.length <= n) return [...docs].sort((a, b) => score[b] - score[a]);
  // Min-heap of size n.
  const heap: number[] = [];
  const less = (a: number, b: number) => score[a] < score[b];
  for (const d of docs) {
    if (heap.length < n) {
      heap.push(d);
      let i = heap.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!less(heap[i], heap[p])) break;
        [heap[i], heap[p]] = [heap[p], heap[i]];
        i = p;
      }
    } else if (score[d] > score[heap[0]]) {
      heap[0] = d;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < heap.length && less(heap[l], heap[m])) m = l;
        if (r < heap.length && less(heap[r], heap[m])) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m], heap[i]];
        i = m;
      }
    }
  }
  return heap.sort((a, b) => score[b] - score[a]);
}
