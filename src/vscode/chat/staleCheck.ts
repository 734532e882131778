// Stale reasons for memories about to reach a model (chat, tools, instructions), from the stale guard:
// a memory naming code that no longer exists is quarantined there and must not be injected as truth.
import type { Memory } from '../../core/types';
import type { Services } from '../services';

/** Reasons by memory id for the stale ones; fresh memories and checks that could not tell are absent. */
export async function staleReasons(services: Services, memories: readonly Memory[]): Promise<ReadonlyMap<string, string>> {
  const check = services.stale;
  const reasons = await Promise.all(memories.map(m => check(m).catch(() => undefined)));
  const out = new Map<string, string>();
  memories.forEach((m, i) => { const r = reasons[i]; if (r) out.set(m.id, r); });
  return out;
}
