// The label written next to each trace: what its lesson must say, and must not claim. Written from the
// scenario's truth (the generator staged the fix, so it knows what fixed what), never from what a lesson
// writer happens to produce. The fields are documented in test/fixtures/traces/README.md.
import { PLACEHOLDER } from './session.mjs';

const RESOLVED = ['fixed', 'unexplained', 'open'];
const STORIES = ['terminal', 'editor', 'agent', 'mixed'];

/**
 * @param {{
 *   family: string, description: string, mustContain?: string[], mustNotClaim?: string[],
 *   expectLesson?: boolean, unexplained?: boolean,
 *   lessons?: number, errors?: string[], mustNotSay?: string[], resolved?: 'fixed'|'unexplained'|'open',
 *   mergeGroup?: string, story?: 'terminal'|'editor'|'agent'|'mixed', live?: boolean, classes?: string[],
 *   decoys?: string[],
 * }} l decoys: files the trace changes or commands it runs that did not fix it (a docs edit, build
 *   output, an unrelated command); they join mustNotClaim, and the corpus test checks they are in the trace
 */
export function label(l) {
  if (l.resolved !== undefined && !RESOLVED.includes(l.resolved)) throw new Error(`resolved must be one of ${RESOLVED.join(', ')}`);
  if (l.story !== undefined && !STORIES.includes(l.story)) throw new Error(`story must be one of ${STORIES.join(', ')}`);
  const unexplained = l.unexplained ?? l.resolved === 'unexplained';
  const expectLesson = l.expectLesson ?? (l.lessons !== undefined ? l.lessons > 0 : !unexplained && l.resolved !== 'open');
  return {
    description: l.description,
    family: l.family,
    mustContain: l.mustContain ?? [],
    mustNotClaim: [...new Set([...(l.mustNotClaim ?? []), ...(l.decoys ?? [])])],
    expectLesson,
    unexplained,
    // The fields below came with issue 17; a label without them is measured by the ones above only.
    ...(l.lessons !== undefined ? { lessons: l.lessons } : {}),
    ...(l.errors ? { errors: l.errors } : {}),
    ...(l.mustNotSay ? { mustNotSay: l.mustNotSay } : {}),
    ...(l.resolved ? { resolved: l.resolved } : {}),
    ...(l.mergeGroup ? { mergeGroup: l.mergeGroup } : {}),
    ...(l.story ? { story: l.story } : {}),
    ...(l.live ? { live: true } : {}),
    ...(l.classes?.length ? { classes: l.classes } : {}),
    ...(l.decoys?.length ? { decoys: l.decoys } : {}),
    placeholders: { [PLACEHOLDER]: 'the temp project folder the tools ran in', '/tmp/engram-trace': 'the temp folder around it' },
  };
}
