// When two command lines are the same command: a failure is paired with the later run that passed by
// this, and fix evidence never counts that re-run as the fix.

/** Same command for pairing a failure with a later success: whitespace, env prefixes and `./` don't matter. */
export function normaliseCommand(line: string): string {
  let tokens = line.trim().replace(/[;&\s]+$/, '').split(/\s+/).filter(Boolean);
  while (tokens.length > 1 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(tokens[0])) tokens = tokens.slice(1);
  return tokens.map(t => t.replace(/^\.\//, '')).join(' ');
}
