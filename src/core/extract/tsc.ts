// TypeScript compiler: "file(l,c): error TSxxxx: ..." (plain), "file:l:c - error TSxxxx: ..." (pretty)
// and the location-less "error TSxxxx: ..."; plus the wording of common tsc messages, for editor
// diagnostics and pasted messages that arrive without any prefix.
import { RANK } from './types';
import type { Matcher } from './scan';

const TSC_PAREN = /^(\S[^()\n]*?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;
const TSC_PRETTY = /^(\S[^\n]*?):(\d+):(\d+) - error (TS\d+): (.*)$/;
const TSC_BARE = /^error (TS\d+): (.*)$/;

export const tsc: Matcher = {
  name: 'tsc',
  match({ i, t }, s) {
    let m: RegExpExecArray | null;
    if ((m = TSC_PAREN.exec(t)) || (m = TSC_PRETTY.exec(t))) {
      s.push(s.make(i, 'tsc', RANK.compiler, { code: m[4], message: withIndented(s.lines, i, m[5]), file: m[1], line: +m[2], column: +m[3] }));
      return true;
    }
    if ((m = TSC_BARE.exec(t))) {
      s.push(s.make(i, 'tsc', RANK.compiler, { code: m[1], message: m[2] }));
      return true;
    }
    return false;
  },
};

/** tsc continues a message on indented lines ("  Type 'x' is not assignable..."): keep at most two. */
function withIndented(lines: string[], i: number, msg: string): string {
  const extra: string[] = [];
  for (let k = i + 1; k < lines.length && k <= i + 2; k++) {
    const l = lines[k];
    if (!/^\s{2,}\S/.test(l) || /^\s+\d+\s/.test(l)) break;
    extra.push(l.trim());
  }
  return extra.length ? `${msg}\n${extra.join('\n')}` : msg;
}

// Editor diagnostics and pasted messages often lack any prefix; recognise the common tsc ones by wording.
const TSC_PHRASES: [RegExp, string][] = [
  [/^Type '.*' is not assignable to type '.*'/, 'TS2322'],
  [/^Argument of type '.*' is not assignable to parameter of type/, 'TS2345'],
  [/^Cannot find module '.*' or its corresponding type declarations/, 'TS2307'],
  [/^Property '.*' does not exist on type '.*'/, 'TS2339'],
  [/^Cannot find name '.*'\.$/, 'TS2304'],
  [/^'.*' is possibly '(?:undefined|null)'/, 'TS18048'],
  [/^Object is possibly '(?:undefined|null)'/, 'TS2532'],
  [/^Property '.*' is missing in type '.*' but required in type/, 'TS2741'],
  [/^Could not find a declaration file for module/, 'TS7016'],
  [/^Parameter '.*' implicitly has an? '.*' type/, 'TS7006'],
  [/^Module '.*' has no exported member '.*'/, 'TS2305'],
  [/^Cannot find module '.*'\. Consider using '--resolveJsonModule'/, 'TS2732'],
  [/^Expected \d+ arguments?, but got \d+/, 'TS2554'],
  [/^Cannot redeclare block-scoped variable/, 'TS2451'],
  [/^Not all code paths return a value/, 'TS7030'],
  [/^Cannot assign to '.*' because it is a (?:read-only property|constant)/, 'TS2540'],
];

export function knownTscCode(message: string): string | undefined {
  for (const [re, code] of TSC_PHRASES) if (re.test(message)) return code;
  return undefined;
}
