// Parses one untrusted log line into a MemoryEvent. The log is shared with other processes and may be
// damaged, so nothing is trusted until it has the shape the reducer relies on. The schemas (core/schema)
// only check: a valid value is returned as it was read, every field kept, because the reducer and the
// snapshot need the whole record and re-copying every event of a large log on each load buys nothing.
import { check, fail, isPlainObject, num, obj, oneOf, says, str, union, type Schema } from '../core/schema';
import type { Memory, MemoryEvent } from '../core/types';

const EVENT_TYPES = ['recorded', 'updated', 'feedback', 'evidence', 'promoted', 'demoted', 'accessed', 'quarantined', 'restored', 'deleted', 'expired'] as const;

/** Any value but undefined or null (the shape's keys are then required, checked by their own schemas). */
type Defined = NonNullable<unknown>;
const anything: Schema<Defined> = v => v as Defined;
/** Log text is bounded by the writer, not here: a long reason is still a reason. */
const text = str({ max: Infinity });
const nonEmpty = str({ min: 1, max: Infinity });

const memoryFields = obj({
  id: says(nonEmpty, 'memory has no id'),
  kind: says(oneOf(['lesson', 'episode', 'fact', 'rule']), 'a memory with an unknown kind'),
});
const memory: Schema<Defined> = (v, at) => (isPlainObject(v) ? memoryFields(v, at) : fail('memory is not an object'));

/** What every event has, then what its type adds; each failure is the warning's short reason. */
function event(extra: Record<string, Schema<Defined>> = {}): Schema<unknown> {
  return obj<Record<string, Defined>>({
    type: anything,
    id: says(nonEmpty, 'event has no id'),
    at: says(num(), 'event has no time'),
    ...extra,
  });
}

const fromTo = (type: string) => ({ from: says(text, `${type} without from/to`), to: says(text, `${type} without from/to`) });

const eventSchema = union('type', {
  ...Object.fromEntries(EVENT_TYPES.map(t => [t, event()])),
  recorded: event({ memory }),
  updated: event({ patch: says(obj({}), 'update without patch') }),
  feedback: event({ outcome: says(oneOf(['prevented', 'still_failed']), 'feedback without outcome') }),
  evidence: event({ evidenceId: says(text, 'evidence without evidenceId') }),
  promoted: event(fromTo('promoted')),
  demoted: event(fromTo('demoted')),
  quarantined: event({ reason: says(text, 'quarantine without reason') }),
}, unknownType);

function unknownType(t: unknown): string {
  return typeof t === 'string' && /^[a-z-]{1,30}$/.test(t) ? `unknown event type ${t}` : 'unknown event type';
}

export function parseMemory(v: unknown): Memory | string {
  const r = check(memory, v);
  return r.ok ? v as Memory : r.error;
}

/** Returns the event, or a short reason why the value is not one. */
export function parseEvent(v: unknown): MemoryEvent | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const r = check(eventSchema, v);
  return r.ok ? v as MemoryEvent : r.error;
}
