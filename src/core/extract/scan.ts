// One pass over one transcript: the lines, the errors found so far (deduplicated, capped), and the
// helpers several matchers share. Every look-around is bounded by a small window.
import { programTool } from './program';
import { MAX_FRAMES, RANK, type ExtractedError, type ExtractOptions, type Found, type Line } from './types';

const EXCERPT_BEFORE = 2;
const EXCERPT_AFTER = 4;

/**
 * One tool's line patterns, offered each line that passed the cheap gate, in the order of MATCHERS.
 * Returns false when the line is not its own (the walk offers it to the next matcher); true when it
 * handled the line, whether or not it pushed an error; a line index when it read a block through that line.
 */
export interface Matcher {
  /** The tool it recognises, for the reader (the errors it makes may name another tool). */
  readonly name: string;
  match(l: Line, s: Scan): boolean | number;
}

export class Scan {
  readonly out: Found[] = [];
  private readonly seen = new Set<string>();
  /** Line index of the last Python "Traceback" header still open, -1 when none: the python matchers' state across lines. */
  pyTraceback = -1;
  /** The tool the command that printed the output runs (`mypy`, `.venv/bin/ruff`), for formats no one tool owns. */
  readonly programTool: string | undefined;
  /** Lines a logger marked as errors (`[ERROR] x`, the marker taken off `lines`): see logLevels. */
  readonly loggedErrors: ReadonlySet<number>;

  constructor(readonly lines: string[], readonly opts: ExtractOptions, private readonly limit: number) {
    this.programTool = programTool(opts.command);
    this.loggedErrors = logLevels(lines);
  }

  get full(): boolean {
    return this.out.length >= this.limit;
  }

  push(f: Found): void {
    const key = `${f.tool}|${f.code ?? ''}|${f.message}|${f.file ?? ''}|${f.line ?? ''}`;
    if (this.seen.has(key) || this.out.length >= this.limit) return;
    this.seen.add(key);
    this.out.push(f);
  }

  /** An error found at line i, with the excerpt around it (from line `from` when its block starts earlier). */
  make(i: number, tool: string, rank: number, f: Partial<ExtractedError> & { message: string }, from?: number): Found {
    const start = Math.max(0, Math.min(from ?? i, i) - EXCERPT_BEFORE);
    const excerpt = this.lines.slice(start, Math.min(this.lines.length, i + 1 + EXCERPT_AFTER)).join('\n').trim();
    const clean: Found = { tool, message: f.message.trim(), stack: f.stack ?? [], excerpt: excerpt.length > 4000 ? excerpt.slice(0, 4000) + '…' : excerpt, rank, at: i };
    if (f.code) clean.code = f.code;
    if (f.file) clean.file = f.file;
    if (f.line !== undefined && Number.isFinite(f.line)) clean.line = f.line;
    if (f.column !== undefined && Number.isFinite(f.column)) clean.column = f.column;
    if (f.wrapper) clean.wrapper = true;
    else if (rank >= RANK.generic) clean.guess = true;
    return clean;
  }

  /** Stack frames from line `from` on (Node and Java print them as "  at ..."), at most MAX_FRAMES. */
  frames(from: number, re: RegExp): string[] {
    const out: string[] = [];
    let k = from;
    // Node may continue the message first ("Did you mean to import ...", "Require stack:\n- /a.js").
    for (let skip = 0; skip < 6 && k < this.lines.length && !re.test(this.lines[k]); skip++, k++) {
      if (!/^(?:Did you mean|Require stack:|- \S|This file is being treated|To treat it as)/.test(this.lines[k].trim())) return out;
    }
    for (; k < this.lines.length && re.test(this.lines[k]); k++) {
      if (out.length < MAX_FRAMES) out.push(this.lines[k].trim());
    }
    return out;
  }
}


/** A logger's level marker in front of a line: Maven's `[ERROR] `, sbt's `[error] `, `[WARNING] `, `[INFO] `. */
const LOG_LEVEL = /^\[(ERROR|FATAL|SEVERE|WARNING|WARN|INFO|DEBUG|TRACE)\] ?/i;

/**
 * Takes the loggers' level markers off the lines, in place, so that what a tool printed under its build
 * tool's logger (`[ERROR] /src/A.java:[5,29] incompatible types`) reads as the tool printed it: every
 * matcher sees the message, not the marker. Informational lines (`[INFO] BUILD FAILURE`, `[DEBUG] …`)
 * are the logger's narration, never an error: they are emptied. Returns the lines marked error or fatal,
 * which the generic matcher may take when no tool's format claims them.
 */
function logLevels(lines: string[]): Set<number> {
  const errors = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    const m = LOG_LEVEL.exec(lines[i]);
    if (!m) continue;
    const level = m[1].toUpperCase();
    if (level === 'INFO' || level === 'DEBUG' || level === 'TRACE') { lines[i] = ''; continue; }
    lines[i] = lines[i].slice(m[0].length);
    if (level === 'ERROR' || level === 'FATAL' || level === 'SEVERE') errors.add(i);
  }
  return errors;
}
