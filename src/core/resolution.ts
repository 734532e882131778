// How the tracker ends an episode is not what fixed it: the one test of its own resolution texts, used by
// the tracker, the pattern pass and every surface. A leaf module, so types.ts can use it without a cycle.

/**
 * The resolutions the tracker writes itself (how an episode ended, not what fixed it). Surfaces and the
 * pattern pass never present these as a fix.
 */
const AUTOMATIC_RESOLUTION = /^(?:the error is gone|error gone|file closed|file deleted|idle gap|workspace folders changed|switched to branch .*|ended by the user(?::.*)?|the error changed to:.*|`[^`]*` passed)$/s;

export function isAutomaticResolution(text: string | undefined): boolean {
  return !text || AUTOMATIC_RESOLUTION.test(text.trim());
}
