// Error text as it matters for matching: without runtime-internal stack frames, location lines and
// runtime banners, with paths cut to the names in them. Used on both sides (memories and queries)
// before words are taken, and for the words shown to people as reasons.

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
