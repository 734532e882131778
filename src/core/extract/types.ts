// The shapes every matcher shares: what an extracted error is, the options a caller passes, and the
// rank that decides which of several errors is the root one.

export interface ExtractedError {
  tool: string; // 'tsc' | 'node' | 'npm' | 'python' | 'rustc' | 'gcc' | 'ld' | 'javac' | 'java' | 'shell' | 'mocha' | 'jest' | 'pytest' | 'generic'
  code?: string; // 'TS2322', 'E0382', 'ENOENT', 'ModuleNotFoundError', ...
  message: string; // the error line as printed (location prefix removed), trimmed
  file?: string;
  line?: number;
  column?: number;
  stack: string[]; // frames, trimmed, at most MAX_FRAMES
  excerpt: string; // a few lines of context (unmasked: mask before persisting)
  /** Set on lines that only report that something else failed (npm ELIFECYCLE, collect2, cargo). */
  wrapper?: boolean;
  /** Set on a guess (a bare "error: x", a logged [ERROR] line) and on warnings: never an error of its own beside a real one. */
  guess?: boolean;
}

export interface ExtractOptions {
  /** Diagnostic source or tool hint when the text has no prefix of its own ('ts', 'tsc', 'python', 'rustc'...). */
  source?: string;
  /** Diagnostic code from the editor (2322 or 'TS2322'). */
  code?: string | number;
  /** Input cap; head and tail are kept. */
  maxBytes?: number;
  /** Stop after this many errors. */
  limit?: number;
  /** The file at hand, when known: disambiguates bare lines ("TypeError: ..." in a .py file is Python). */
  file?: string;
  /** The command line that printed the output: names the tool of formats no one tool owns (extract/program.ts). */
  command?: string;
}

export const MAX_FRAMES = 20;

/** Lower ranks are more likely the root cause; wrappers and guesses rank last. */
// `located`: a "file:line: message" line without a severity word (Go, flake8), below a test runner's own
// block, which says more than the location line pytest prints under it.
export const RANK = { compiler: 10, runtime: 10, npm: 15, shell: 20, test: 30, located: 35, generic: 80, wrapper: 90 } as const;

/** An error as found, with what picks the root one (rank, then position). */
export interface Found extends ExtractedError {
  rank: number;
  at: number; // line index
}

/** A line offered to the matchers: its index, as printed, and trimmed. */
export interface Line {
  i: number;
  raw: string;
  t: string;
}
