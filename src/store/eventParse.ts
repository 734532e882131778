// Parses one untrusted log line into a MemoryEvent. The log is shared with other processes and may be
// damaged, so nothing is trusted until it has the shape the reducer relies on.
import type { Memory, MemoryEvent } from '../core/types';

const EVENT_TYPES = new Set(['recorded', 'updated', 'feedback', 'evidence', 'promoted', 'demoted', 'accessed', 'quarantined', 'restored', 'deleted', 'expired']);
const KINDS = new Set(['lesson', 'episode', 'fact', 'rule']);

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function parseMemory(v: unknown): Memory | string {
  if (!isObj(v)) return 'memory is not an object';
  if (typeof v.id !== 'string' || !v.id) return 'memory has no id';
  if (typeof v.kind !== 'string' || !KINDS.has(v.kind)) return 'a memory with an unknown kind';
  return v as unknown as Memory;
}

/** Returns the event, or a short reason why the value is not one. */
export function parseEvent(v: unknown): MemoryEvent | string {
  if (!isObj(v)) return 'not a JSON object';
  if (typeof v.type !== 'string' || !EVENT_TYPES.has(v.type)) return typeof v.type === 'string' && /^[a-z-]{1,30}$/.test(v.type) ? `unknown event type ${v.type}` : 'unknown event type';
  if (typeof v.id !== 'string' || !v.id) return 'event has no id';
  if (typeof v.at !== 'number' || !Number.isFinite(v.at)) return 'event has no time';
  switch (v.type) {
    case 'recorded': {
      const m = parseMemory(v.memory);
      if (typeof m === 'string') return m;
      break;
    }
    case 'updated':
      if (!isObj(v.patch)) return 'update without patch';
      break;
    case 'feedback':
      if (v.outcome !== 'prevented' && v.outcome !== 'still_failed') return 'feedback without outcome';
      break;
    case 'evidence':
      if (typeof v.evidenceId !== 'string') return 'evidence without evidenceId';
      break;
    case 'promoted':
    case 'demoted':
      if (typeof v.from !== 'string' || typeof v.to !== 'string') return `${v.type} without from/to`;
      break;
    case 'quarantined':
      if (typeof v.reason !== 'string') return 'quarantine without reason';
      break;
  }
  return v as unknown as MemoryEvent;
}
