// The label written next to each trace: what its lesson must say, and must not claim.
import { PLACEHOLDER } from './session.mjs';

/**
 * @param {{ family: string, description: string, mustContain?: string[], mustNotClaim?: string[], expectLesson?: boolean, unexplained?: boolean }} l
 */
export function label(l) {
  return {
    description: l.description,
    family: l.family,
    mustContain: l.mustContain ?? [],
    mustNotClaim: l.mustNotClaim ?? [],
    expectLesson: l.expectLesson ?? true,
    unexplained: l.unexplained ?? false,
    placeholders: { [PLACEHOLDER]: 'the temp project folder the tools ran in', '/tmp/engram-trace': 'the temp folder around it' },
  };
}
