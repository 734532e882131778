// The order in which each line is offered to the per-tool matchers. The first matcher that claims a
// line handles it; the ones after it never see it. Several formats overlap, so the order is part of
// the behaviour: each entry says what it has to come before.
import type { Matcher } from './scan';
import { tsc } from './tsc';
import { javac } from './javac';
import { gcc } from './gcc';
import { ld } from './ld';
import { wrappers } from './wrappers';
import { rustc, rustPanic } from './rustc';
import { npm } from './npm';
import { java } from './java';
import { coreutils, shell } from './shell';
import { pythonException, pythonTraceback } from './python';
import { pytest } from './pytest';
import { node } from './node';
import { mocha } from './mocha';
import { jest } from './jest';
import { generic } from './generic';
import { git } from './git';
import { goPanic, goTest } from './gotest';
import { located } from './located';

export const MATCHERS: readonly Matcher[] = [
  // Only records where a Python traceback opens, for pythonException below; claims nothing else.
  pythonTraceback,
  // Compilers first: their lines carry a file, a line and often a code, the best root errors, and
  // their prefixes ("error TS2322", "file.java:3: error:") are the most specific.
  tsc,
  // Before gcc: "Orders.java:2: error: x" also has gcc's "file:line: error:" shape.
  javac,
  gcc,
  // collect2's "ld returned 1 exit status" is claimed here as a wrapper, with the linker's own lines.
  ld,
  // Before node: CI's "Error: Process completed with exit code 1" has Node's "Error: x" shape but only
  // reports a failure elsewhere. (Cargo's "error: could not compile `x`" has rustc's shape too; rustc
  // claims such a line only with a "-->" location below it.)
  wrappers,
  // "error[E0382]: x", or "error: x" with a "-->" location below; before generic, which would take the
  // latter. A bare "error: x" with neither is left to the matchers after it.
  rustc,
  // "thread 'x' panicked at file:line:col:" with its message below (read as one block).
  rustPanic,
  // Reads its whole "npm ERR!" block at once; the lines inside it are not offered again.
  npm,
  java,
  // Before coreutils: "bash: x: No such file or directory" is the shell's message (its text after
  // "bash:"), not a utility's.
  shell,
  // Before node: "KeyError: 'k'" closing a traceback also has Node's "XError: message" shape.
  pythonException,
  // pytest's "E   ..." blocks and "FAILED x - y" summaries; no other matcher takes these lines.
  pytest,
  // After python and pytest (above). Errors under a mocha/jest/vitest failure head are named for
  // that runner here (testRunner.inTestRunner), which is why vitest has no matcher of its own.
  node,
  // After the exception matchers: its looser "tool: x: No such file or directory" would also take
  // Python's "OSError: x: No such file or directory".
  coreutils,
  // Claims mocha's "  1) test" heads: a title is not an error; the error line below it is node's.
  mocha,
  // "● suite › test" heads: the failure's first line below, with the test's name (an "XError: x"
  // line below is also claimed by node, which names jest as its tool).
  jest,
  // "--- FAIL: TestX": the indented "x_test.go:7: message" below is the test's report, which the located
  // matcher would take for context.
  goTest,
  // "panic: x" with its goroutine's frames.
  goPanic,
  // "CONFLICT (content): Merge conflict in x".
  git,
  // After every tool with a format of its own: "file:line: message" from any other tool (Go, flake8,
  // mypy, pyright, Biome, make); it also claims the note, help and indented context lines of that shape,
  // so generic never takes them for the error.
  located,
  // Last: "ERROR: x", "error: x", "[error] x" from any tool, the guess every matcher above beats.
  generic,
];

// Cheap gate before the matchers: a line that contains none of these cannot start an error for any
// matcher above, so the long tail of build noise costs one scan per line. A new matcher whose lines
// contain none of these words must add its own here.
// A "file:line" at the start of a line (after an analyser's "vet: ") may be any tool's diagnostic.
export const MAY_START = /rror|ERR|panicked at|FAILURE|failed|aborted| at \S+ line \d+|atal|FATAL|xception|Traceback|Warning|Interrupt|Exit|Iteration|undefined reference|multiple definition|cannot find|not found|No such file|denied|Is a directory|Not a directory|File exists|unbound|ubstitution|redirect|arguments|expected|cannot execute|interpreter|terminated|FAILED|--- FAIL|^panic: |CONFLICT|merge failed|●|^E\s|^npm |^\s+\d+\) |^\s*(?:[a-z][\w-]*: )?[^\s:]+:\d+[:\s]/;
