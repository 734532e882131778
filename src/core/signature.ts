// Turns one error message into a stable signature: the same root cause in two different programs
// (other file, other identifier, other line) gets the same key; a different cause gets another.
import { primaryError, knownTscCode, type ExtractOptions } from './extract';
import { maskSecrets } from './mask';
import { sanitizeText } from './text';

export interface Signature {
  key: string; // e.g. "tsc:TS2322:type <id> is not assignable to type <id>"
  code?: string;
  tool: string;
  family: string; // coarse family for episode boundaries, e.g. "tsc:type", "node:module-not-found"
  text: string; // normalised message with placeholders
  words: string[]; // meaning-carrying words for lexical recall
}

const MAX_MESSAGE = 600;

/** Signature of the root error in raw output, or undefined when nothing looks like an error. */
export function signatureOf(raw: string, opts?: ExtractOptions): Signature | undefined {
  const e = primaryError(raw, opts);
  return e ? normaliseSignature(e.message, e.tool, e.code) : undefined;
}

/**
 * Normalises a message. `tool` and `code` come from extraction when known; otherwise they are read
 * from the message's own prefix (tsc, rustc, gcc, npm, Python/Node exception names).
 */
export function normaliseSignature(message: string, tool?: string, code?: string): Signature {
  let msg = sanitizeText(message ?? '').trim();
  // The first line carries the cause; follow-up lines are detail that varies per program
  // (tsc elaboration, javac "symbol: variable x").
  const nl = msg.indexOf('\n');
  // Masked before anything is derived: the key is lower-cased below, where no case-sensitive detector
  // would find a secret again, and it is stored, logged and exported. Masked with headroom first so a
  // secret straddling the cut is still recognised whole.
  msg = maskSecrets((nl >= 0 ? msg.slice(0, nl) : msg).slice(0, MAX_MESSAGE * 4), { genericHome: false }).slice(0, MAX_MESSAGE);
  const parsed = parsePrefix(msg);
  msg = parsed.rest;
  let t = tool || parsed.tool || 'generic';
  let c = code || parsed.code;
  if (!c && (t === 'tsc' || t === 'generic')) {
    const k = knownTscCode(msg);
    if (k) { c = k; t = 'tsc'; }
  }
  // Python/Node print "ExceptionName: message": the name is the code, the rest the text.
  const exc = /^((?:[\w$]+\.)*((?:[A-Z][\w$]*)?(?:Error|Exception)))(?: \[([A-Z][A-Z0-9_]+)\])?: ?(.*)$/.exec(msg);
  if (exc) {
    // An explicit code wins; then Node's [ERR_X]; then a code read from the prefix; then the class.
    if (!code) c = exc[3] ?? c ?? exc[2];
    msg = exc[4] || exc[2];
  }
  // Node's "Error: listen EADDRINUSE: ..." — the errno code says more than the class name.
  const errno = /(?:^|\s)(E[A-Z]{3,}):/.exec(msg);
  if (errno && (!c || /^(?:[A-Z]\w*)?Error$/.test(c))) c = errno[1];
  const text = normaliseText(msg, t);
  const family = familyOf(t, c, text);
  const words = meaningWords(text, c);
  const key = `${t}:${c ?? '-'}:${text}`;
  const sig: Signature = { key, tool: t, family, text, words };
  if (c) sig.code = c;
  return sig;
}

function parsePrefix(msg: string): { rest: string; tool?: string; code?: string } {
  let m: RegExpExecArray | null;
  if ((m = /^\S[^()\n]*?\(\d+,\d+\): error (TS\d+): (.*)$/.exec(msg)) || (m = /^\S.*?:\d+:\d+ - error (TS\d+): (.*)$/.exec(msg)) || (m = /^error (TS\d+): (.*)$/.exec(msg))) {
    return { tool: 'tsc', code: m[1], rest: m[2] };
  }
  if ((m = /^error\[(E\d{4})\]: (.*)$/.exec(msg))) return { tool: 'rustc', code: m[1], rest: m[2] };
  if ((m = /^\S[^:\n]*?\.java:\d+: error: (.*)$/.exec(msg))) return { tool: 'javac', rest: m[1] };
  if ((m = /^\S[^:\n]*?:\d+:(?:\d+:)? (?:fatal error|error): (.*)$/.exec(msg))) return { tool: 'gcc', rest: m[1] };
  if ((m = /^npm (?:ERR!|error) (?:code (E[A-Z0-9]+)$)?(.*)$/.exec(msg))) return { tool: 'npm', code: m[1], rest: m[2] || m[1] || '' };
  if ((m = /^(?:\/[\w/]*\/)?(?:bash|sh|zsh|dash)(?:: line \d+)?: (?:\d+: )?(.*)$/.exec(msg))) return { tool: 'shell', rest: m[1] };
  if ((m = /^[\w.~/-]+: (?:line \d+|\d+): (.*)$/.exec(msg))) return { tool: 'shell', rest: m[1] };
  if ((m = /^(?:error|fatal error): (.*)$/.exec(msg))) return { rest: m[1] };
  if ((m = /^Uncaught (.*)$/.exec(msg))) return { tool: 'node', rest: m[1] };
  return { rest: msg };
}

// Message templates whose variable parts are NOT quoted by the tool (Node, javac, shells).
const TEMPLATES: [RegExp, string][] = [
  [/^\S+ is not a function\b.*$/, '<id> is not a function'],
  [/^\S+ is not a constructor\b.*$/, '<id> is not a constructor'],
  [/^\S+ is not defined\b.*$/, '<id> is not defined'],
  [/^\S+ is not iterable\b.*$/, '<id> is not iterable'],
  [/^(?:\S+ )?is not a function or its return value is not iterable$/, '<id> is not a function or its return value is not iterable'],
  [/^incompatible types: \S+ cannot be converted to \S+$/, 'incompatible types: <type> cannot be converted to <type>'],
  [/^incompatible types: possible lossy conversion from \S+ to \S+$/, 'incompatible types: possible lossy conversion'],
  [/^unreported exception \S+; must be caught or declared to be thrown$/, 'unreported exception <type>; must be caught or declared to be thrown'],
  [/^variable \S+ might not have been initialized$/, 'variable <id> might not have been initialized'],
  [/^variable \S+ is already defined in .*$/, 'variable <id> is already defined'],
  [/^cannot assign a value to final variable \S+$/, 'cannot assign a value to final variable <id>'],
  [/^non-static (?:variable|method) \S+ cannot be referenced from a static context$/, 'non-static member <id> cannot be referenced from a static context'],
  [/^(method|constructor) \S+ in (class|interface|enum|record) \S+ cannot be applied to given types;?$/, '$1 <id> in $2 <id> cannot be applied to given types'],
  [/^class \S+ is public, should be declared in a file named \S+$/, 'class <id> is public, should be declared in a file named <file>'],
  [/^package \S+ does not exist$/, 'package <id> does not exist'],
  [/^\S+ is not abstract and does not override abstract method \S+ in \S+$/, '<id> is not abstract and does not override abstract method <id> in <id>'],
  [/^The "?[\w.]+"? (argument|property) must be .*?\. Received .*$/, 'the <id> $1 must be of type <type>. received <value>'],
  [/^'?[\w-]+'? codec can't decode byte .*$/, '<id> codec cannot decode byte'],
  [/^'?[\w-]+'? codec can't encode character.*$/, '<id> codec cannot encode character'],
  [/^Unsupported URL Type "([\w+-]+:)": .*$/, 'unsupported url type $1'],
  [/^Cannot invoke .* because .* is null$/, 'cannot invoke <id> because <id> is null'],
  [/^\[: .*: integer expression expected$/, '[: <value>: integer expression expected'],
  [/^(?:[\w.-]+: )?\S+: command not found$/, 'command not found'],
  // Go names the identifier without quotes.
  [/^\S+ redeclared in this block$/, '<id> redeclared in this block'],
  [/^\S+ declared (?:but|and) not used$|^declared (?:but|and) not used: \S+$/, '<id> declared and not used'],
  [/^undefined: \S+$/, 'undefined: <id>'],
  // go vet's printf check names the argument bare: the verb and the type are the error, not the variable.
  [/^(\S+) format (%[\w.#+ -]*\w) has arg \S+ of wrong type (.+)$/, '$1 format $2 has arg <id> of wrong type $3'],
  [/^(?:\S+: )?\S+: not found$/, 'command not found'],
];

const STOP = new Set(('a an the of to in on at for from by with and or is are was were be been it its this that as ' +
  'not no but if then than into your you we our has have had do does did can cannot could would should will ' +
  'id n path file url hex str num type').split(' '));

/** Placeholders and lowercasing; identifiers, paths, numbers and hashes never reach the key. */
export function normaliseText(input: string, tool = 'generic'): string {
  let s = input.trim();
  for (const [re, rep] of TEMPLATES) {
    if (re.test(s)) { s = s.replace(re, rep); break; }
  }
  if (tool === 'ld') s = s.replace(/(undefined reference to )[`'‘]([^'’\n]{1,400})['’]/g, (_m, pre: string, sym: string) => pre + symbolKind(sym));
  s = s
    // contractions first, so "can't" is not read as an opening quote
    .replace(/(\w)'(t|s|re|ll|ve|d|m)\b/g, '$1$2')
    .replace(/\bhttps?:\/\/[^\s'"`)>\]]+/g, '<url>')
    .replace(/\$\{?[A-Za-z_]\w*\}?/g, '<var>')
    // quoted identifiers and types: ld's `x', gcc's ‘x’, and the usual quotes
    .replace(/`[^`'\s][^`'\n]{0,200}'/g, '<id>')
    .replace(/‘[^’\n]{0,200}’/g, '<id>')
    .replace(/“[^”\n]{0,200}”/g, '<id>')
    .replace(/`[^`\n]{0,200}`/g, '<id>')
    .replace(/"[^"\n]{0,200}"/g, '<id>')
    .replace(/'[^'\n]{0,200}'/g, '<id>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<hex>')
    .replace(/\b0x[0-9a-f]+\b/gi, '<hex>')
    .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/gi, '<hex>')
    .replace(/\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b/g, '<ip>')
    .replace(/\[::1?\](?::\d{1,5})?/g, '<ip>')
    // paths: anything with a slash, or a file name with an extension
    .replace(/(?:[A-Za-z]:)?(?:~|\.{1,2}|[\w.@+~-]+)?(?:[\\/][\w.@+~-]+)+[\\/]?(?::\d+)*/g, '<path>')
    .replace(/\b[\w-]+(?:\.[\w-]+)*\.(?:[cm]?[jt]sx?|json|py|rs|c|cc|cpp|cxx|h|hpp|java|class|o|so|a|toml|lock|ya?ml|md|txt|sh|env|html|css|csv|sql)\b/gi, '<path>')
    .replace(/\b(?:tmp|temp)[\w-]{4,}\b/gi, '<tmp>')
    // identifiers that only code has: fooBar, foo_bar, foo.bar, foo::bar, foo() — not English words
    .replace(/\b[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)+(?:\(\))?/g, '<id>')
    .replace(/\b[a-z]+[A-Z][\w$]*\b|\b[A-Za-z]*_[\w$]*\b/g, '<id>')
    .replace(/\b[A-Za-z_$][\w$]*\(\)/g, '<id>()')
    .replace(/\b\d+(?:\.\d+)*\b/g, '<n>')
    // "1 argument was" vs "2 arguments were": the count is not the cause
    .replace(/<n> ([a-z]{2,}[^s\W])s\b/g, '<n> $1')
    .replace(/(<n> [a-z]+) were\b/g, '$1 was');
  if (tool === 'rustc') s = s.replace(/\bE\d{4}\b/g, '<code>');
  s = s
    // tool-specific tails that vary with the program, not the cause
    .replace(/\s*\{aka [^}]*\}/g, '')
    .replace(/[;.,]?\s*(?:did you mean|maybe you meant)\b.*$/i, '')
    .replace(/\s+token$/, '')
    .replace(/\s*while parsing near .*$/i, '')
    // a bracket left open where a "did you mean" tail was cut
    .replace(/\s*[([{]$/, '')
    .toLowerCase()
    .replace(/<(id|path|file|n|hex|ip|tmp|url)>(?:\s*(?:,|or|and)?\s*<\1>)+/g, '<$1>')
    .replace(/\s+/g, ' ')
    .replace(/[\s.:;,]+$/, '')
    .trim();
  return s;
}

// What kind of symbol is missing says more about the cause than its name: a vtable means an
// undefined virtual, a template member means definitions hidden in a .cpp, libm means -lm.
const LIBM = /^(?:sqrtf?|powf?|floorf?|ceilf?|sinf?|cosf?|tanf?|expf?|logf?|log10f?|log2f?|fabsf?|roundf?|fmodf?|atan2f?|hypotf?|cbrtf?|truncf?)$/;
function symbolKind(sym: string): string {
  if (/^(?:vtable|typeinfo|VTT) for /.test(sym)) return '<vtable>';
  if (LIBM.test(sym)) return '<libm>';
  if (/</.test(sym) && /::/.test(sym)) return '<template-member>';
  if (/::/.test(sym)) return '<member>';
  return '<id>';
}

function meaningWords(text: string, code?: string): string[] {
  const words: string[] = [];
  const seen = new Set<string>();
  if (code) { words.push(code.toLowerCase()); seen.add(code.toLowerCase()); }
  // Generic placeholders carry no meaning; symbol kinds (<vtable>, <libm>) do.
  for (const w of text.replace(/<(?:id|path|n|hex|ip|tmp|url|type|value|code|var)>/g, ' ').split(/[^a-z0-9]+/)) {
    if (w.length < 2 || STOP.has(w) || seen.has(w) || /^\d+$/.test(w)) continue;
    seen.add(w);
    words.push(w);
  }
  return words;
}

const TSC_FAMILY: Record<string, string> = {
  TS2322: 'type', TS2345: 'type', TS2741: 'type', TS2739: 'type', TS2353: 'type', TS2769: 'type', TS2352: 'type', TS2740: 'type', TS2559: 'type', TS2820: 'type', TS2367: 'type',
  TS2307: 'module', TS2792: 'module', TS7016: 'module', TS2306: 'module', TS2732: 'module', TS1259: 'module', TS1479: 'module', TS2835: 'module', TS1192: 'module', TS2613: 'module', TS1343: 'module',
  TS2304: 'name', TS2582: 'name', TS2593: 'name', TS2688: 'config', TS2552: 'name', TS2339: 'name', TS2551: 'name', TS2305: 'name', TS2724: 'name', TS2614: 'name', TS2451: 'name', TS2300: 'name', TS2448: 'name', TS2454: 'name',
  TS18048: 'nullable', TS18047: 'nullable', TS2532: 'nullable', TS2531: 'nullable', TS2533: 'nullable', TS18049: 'nullable',
  TS7006: 'implicit-any', TS7031: 'implicit-any', TS7053: 'implicit-any', TS7005: 'implicit-any', TS7034: 'implicit-any',
  TS2554: 'call', TS2555: 'call', TS2349: 'call', TS2356: 'call', TS2684: 'call',
  TS2540: 'readonly', TS2588: 'readonly',
  TS7030: 'flow', TS2366: 'flow', TS1308: 'async', TS2801: 'async', TS1378: 'async',
};

function familyOf(tool: string, code: string | undefined, text: string): string {
  switch (tool) {
    case 'tsc': {
      if (!code) return 'tsc:other';
      const f = TSC_FAMILY[code];
      if (f) return `tsc:${f}`;
      const n = +code.slice(2);
      if (n >= 1000 && n < 2000) return 'tsc:syntax';
      if (n >= 5000 && n < 7000) return 'tsc:config';
      if (n >= 7000 && n < 8000) return 'tsc:implicit-any';
      return 'tsc:other';
    }
    case 'node': case 'mocha': case 'jest': {
      if (/MODULE_NOT_FOUND|ERR_MODULE_NOT_FOUND|ERR_PACKAGE_PATH_NOT_EXPORTED|ERR_UNSUPPORTED_DIR_IMPORT/.test(code ?? '') || /cannot find (?:module|package)/.test(text)) return 'node:module-not-found';
      if (/ERR_REQUIRE_ESM|ERR_UNKNOWN_FILE_EXTENSION|ERR_IMPORT_ASSERTION|ERR_IMPORT_ATTRIBUTE/.test(code ?? '') || /import statement outside a module|require is not defined|does not provide an export/.test(text)) return 'node:esm';
      if (/^E(?:NOENT|ACCES|ISDIR|NOTDIR|EXIST|PERM|MFILE|NOTEMPTY)$/.test(code ?? '')) return 'node:fs';
      if (/^E(?:ADDRINUSE|CONNREFUSED|CONNRESET|TIMEDOUT|NOTFOUND|AI_AGAIN)$/.test(code ?? '')) return 'node:network';
      if (code === 'ERR_ASSERTION' || code === 'AssertionError' || tool !== 'node') return `${tool === 'node' ? 'node' : 'test'}:assertion`;
      if (code === 'SyntaxError') return 'node:syntax';
      if (code === 'ReferenceError') return 'node:reference';
      if (code === 'TypeError') return 'node:type';
      if (code === 'RangeError') return 'node:range';
      if (code && /^ERR_/.test(code)) return 'node:api';
      return 'node:runtime';
    }
    case 'python': case 'pytest': {
      const c = code ?? '';
      if (/^(ModuleNotFoundError|ImportError)$/.test(c)) return 'python:import';
      if (/^(SyntaxError|IndentationError|TabError)$/.test(c)) return 'python:syntax';
      if (/^(NameError|UnboundLocalError|AttributeError)$/.test(c)) return 'python:name';
      if (c === 'TypeError') return 'python:type';
      if (/^(ValueError|KeyError|IndexError|ZeroDivisionError|OverflowError|JSONDecodeError|UnicodeDecodeError|UnicodeEncodeError)$/.test(c)) return 'python:value';
      if (/^(FileNotFoundError|PermissionError|IsADirectoryError|OSError|IOError|ConnectionRefusedError|TimeoutError)$/.test(c)) return 'python:io';
      if (c === 'AssertionError') return 'python:assertion';
      if (/^(RecursionError|StopIteration|RuntimeError)$/.test(c)) return 'python:runtime';
      return 'python:other';
    }
    case 'rustc': {
      const c = code ?? '';
      if (/^E0(382|499|502|505|506|507|596|597|716|384|503|373|381|515)$/.test(c)) return 'rustc:borrow';
      if (/^E0(308|277|369|614|605|606|604|271)$/.test(c)) return 'rustc:type';
      if (/^E0(425|412|433|432|599|423|405|422|583)$/.test(c)) return 'rustc:resolve';
      if (/^E0(061|060|107|050)$/.test(c)) return 'rustc:arity';
      if (/^E0(106|261|621|623|759|495|700)$/.test(c)) return 'rustc:lifetime';
      if (/^E0(004|005|023|026|027)$/.test(c)) return 'rustc:pattern';
      if (/^E0(046|053|117|119|184|200|204)$/.test(c)) return 'rustc:trait';
      return c ? 'rustc:other' : /lint|unused|never read/.test(text) ? 'rustc:lint' : 'rustc:other';
    }
    case 'gcc': {
      if (/no such file or directory/.test(text)) return 'gcc:include';
      if (/undeclared|implicit declaration|was not declared|not declared in this scope|unknown type name|has no member named/.test(text)) return 'gcc:declaration';
      if (/^expected |expected .* before|stray|missing terminating/.test(text)) return 'gcc:syntax';
      if (/incompatible|conversion|invalid operands|cannot convert|too (?:few|many) arguments|no matching function/.test(text)) return 'gcc:type';
      if (/redefinition|conflicting types/.test(text)) return 'gcc:redefinition';
      return 'gcc:other';
    }
    case 'ld': {
      if (/undefined reference/.test(text)) return 'ld:undefined-symbol';
      if (/multiple definition/.test(text)) return 'ld:duplicate-symbol';
      if (/cannot find -l/.test(text)) return 'ld:library';
      return 'ld:other';
    }
    case 'javac': {
      if (/cannot find symbol|does not exist/.test(text)) return 'javac:symbol';
      if (/incompatible types|lossy conversion|cannot be applied to given types|cannot be dereferenced|bad operand/.test(text)) return 'javac:type';
      if (/missing return|unreachable|might not have been initialized|final variable/.test(text)) return 'javac:flow';
      if (/unreported exception/.test(text)) return 'javac:exception';
      if (/expected|illegal start|reached end of file|unclosed/.test(text)) return 'javac:syntax';
      if (/static context|abstract|should be declared in a file named|already defined/.test(text)) return 'javac:structure';
      return 'javac:other';
    }
    case 'go': {
      if (code === 'FAIL') return 'go:test';
      if (code === 'panic') return 'go:runtime';
      if (/import|module|package/.test(text)) return 'go:import';
      if (/redeclared|declared and not used|undefined: /.test(text)) return 'go:declaration';
      if (/cannot use|mismatched types|cannot convert|invalid operation/.test(text)) return 'go:type';
      return 'go:other';
    }
    case 'java': return /NullPointerException/.test(code ?? '') ? 'java:null' : `java:${(code ?? 'runtime').toLowerCase()}`;
    case 'npm': {
      const c = code ?? '';
      if (c === 'ERESOLVE' || /peer dep|unable to resolve dependency tree/.test(text)) return 'npm:dependency';
      if (/^E(404|TARGET|NOTARGET)$/.test(c) || /not found - get|no matching version/.test(text)) return 'npm:registry';
      if (c === 'ELIFECYCLE') return 'npm:lifecycle';
      if (/^E(ACCES|PERM)$/.test(c)) return 'npm:permission';
      if (c === 'EJSONPARSE') return 'npm:manifest';
      if (/missing script/.test(text) || c === 'ENOENT') return 'npm:script';
      if (c === 'EBADENGINE' || c === 'ENOTSUP') return 'npm:engine';
      if (c === 'EUSAGE') return 'npm:usage';
      return 'npm:other';
    }
    case 'shell': {
      if (/command not found/.test(text) || code === 'command-not-found') return 'shell:command-not-found';
      if (code === 'ENOENT' || /no such file or directory/.test(text)) return 'shell:no-such-file';
      if (code === 'EACCES' || /permission denied/.test(text)) return 'shell:permission';
      if (/syntax error|unexpected/.test(text)) return 'shell:syntax';
      return 'shell:other';
    }
    default: return code ? `${tool}:${code.toLowerCase()}` : tool;
  }
}
