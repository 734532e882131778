// The one way untrusted input becomes typed data: webview messages (src/views), import lines
// (importFormat), language-model and MCP tool input (schemaToolInput) and event-log lines (eventParse)
// are all described with these few combinators. Hand-rolled rather than zod: zod 4 adds ~92 KB to the
// extension bundle and ~90 KB to the 31 KB webview bundle, and import needs its own sentences anyway.
//
// A schema reads a value and returns a FRESH typed copy, or throws a SchemaError whose message names the
// field ("steps[2].action") in the caller's wording. Objects must be plain, only own keys are read and
// unknown keys are dropped, so a hostile `__proto__` or `constructor` key never reaches a prototype.

export class SchemaError extends Error {}

/** How failures are phrased: each surface keeps the sentences its users (and tests) know. */
export interface Wording {
  /** `what` is a noun phrase: "a string", "an array of strings", "one of a, b". */
  type(name: string, what: string): string;
  tooLong(name: string, max: number): string;
  tooMany(name: string, max: number): string;
}

/** Import and the event log: `"rootCause" must be a string`. */
export const PLAIN: Wording = {
  type: (n, what) => `"${n}" must be ${what}`,
  tooLong: (n, max) => `"${n}" is longer than ${max} characters`,
  tooMany: (n, max) => `"${n}" has more than ${max} entries`,
};

/** Where a value sits: its name for messages and the wording to use. */
export interface At { name: string; say: Wording }

export type Schema<T> = (v: unknown, at: At) => T;

export function fail(message: string): never {
  throw new SchemaError(message);
}

/** The value, or a SchemaError thrown with its message. */
export function parse<T>(schema: Schema<T>, v: unknown, say: Wording = PLAIN, name = ''): T {
  return schema(v, { name, say });
}

/** The value, or undefined: for surfaces that drop what they cannot read (webview messages). */
export function tryParse<T>(schema: Schema<T>, v: unknown): T | undefined {
  try {
    return schema(v, { name: '', say: PLAIN });
  } catch (e) {
    if (e instanceof SchemaError) return undefined;
    throw e;
  }
}

/** The value, or the SchemaError's sentence. */
export function check<T>(schema: Schema<T>, v: unknown, say: Wording = PLAIN): { ok: true; value: T } | { ok: false; error: string } {
  try {
    return { ok: true, value: schema(v, { name: '', say }) };
  } catch (e) {
    if (e instanceof SchemaError) return { ok: false, error: e.message };
    throw e;
  }
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

export function own(o: Record<string, unknown>, k: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
}

const child = (at: At, key: string | number): At =>
  ({ name: typeof key === 'number' ? `${at.name}[${key}]` : at.name ? `${at.name}.${key}` : key, say: at.say });

// --------------------------------------------------------------------------------------------- scalars

export function str(opts: { max?: number; min?: number } = {}): Schema<string> {
  const { max = 100_000, min = 0 } = opts;
  return (v, at) => {
    if (typeof v !== 'string' || v.length < min) fail(at.say.type(at.name, 'a string'));
    if (v.length > max) fail(at.say.tooLong(at.name, max));
    return v;
  };
}

/** A finite number, optionally within [min, max] (the message then says the range). */
export function num(opts: { min?: number; max?: number; what?: string } = {}): Schema<number> {
  const { min = -Infinity, max = Infinity } = opts;
  const what = opts.what ?? (Number.isFinite(min) && Number.isFinite(max) ? `a number from ${min} to ${max}` : 'a number');
  return (v, at) => (typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? v : fail(at.say.type(at.name, what)));
}

export const bool: Schema<boolean> = (v, at) => (typeof v === 'boolean' ? v : fail(at.say.type(at.name, 'true or false')));

export function oneOf<T extends string>(values: readonly T[], what = `one of ${values.join(', ')}`): Schema<T> {
  return (v, at) => (typeof v === 'string' && (values as readonly string[]).includes(v) ? (v as T) : fail(at.say.type(at.name, what)));
}

export function lit<T extends string>(value: T): Schema<T> {
  return (v, at) => (v === value ? value : fail(at.say.type(at.name, `"${value}"`)));
}

/** Epoch milliseconds (floored) or an ISO date string, as export and people write times. */
export const time: Schema<number> = (v, at) => {
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0 || v > 8.64e15) fail(at.say.type(at.name, 'epoch milliseconds or an ISO date'));
    return Math.floor(v);
  }
  if (typeof v === 'string') {
    const t = Date.parse(v);
    return Number.isFinite(t) ? t : fail(`"${at.name}" is not a date`);
  }
  return fail(at.say.type(at.name, 'epoch milliseconds or an ISO date'));
};

// ------------------------------------------------------------------------------------------ structures

/**
 * A list of strings (`single`: a lone string is a list of one, a common shorthand). Every entry is
 * checked before the count, so the message says what is wrong rather than how many there are.
 */
export function strings(opts: { max?: number; single?: boolean } = {}): Schema<string[]> {
  const { max = Infinity, single = false } = opts;
  return (v, at) => {
    if (single && typeof v === 'string') return [v];
    if (!Array.isArray(v) || v.some(x => typeof x !== 'string')) fail(at.say.type(at.name, 'an array of strings'));
    if (v.length > max) fail(at.say.tooMany(at.name, max));
    return [...(v as string[])];
  };
}

/** An array of at most `max` items; `what` names it in the type message ("an array of strings"). */
export function arr<T>(item: Schema<T>, max = 1000, what = 'an array'): Schema<T[]> {
  return (v, at) => {
    if (!Array.isArray(v)) fail(at.say.type(at.name, what));
    if (v.length > max) fail(at.say.tooMany(at.name, max));
    return v.map((x, i) => item(x, child(at, i)));
  };
}

type Optional<T> = { optional: Schema<T>; nullIsAbsent: boolean };
/** Keys that may be undefined take `opt`/`maybe`, the others a schema. */
export type Shape<T> = { [K in keyof T]-?: undefined extends T[K] ? Optional<Exclude<T[K], undefined>> : Schema<T[K]> };

/** An optional key: absent when undefined. */
export const opt = <T>(s: Schema<T>): Optional<T> => ({ optional: s, nullIsAbsent: false });
/** An optional key that JSON writers fill with null as often as they leave it out. */
export const maybe = <T>(s: Schema<T>): Optional<T> => ({ optional: s, nullIsAbsent: true });

/** A plain object with these keys, read in order (the first bad one is reported); other keys are dropped. */
export function obj<T>(shape: Shape<T>, what = 'an object'): Schema<T> {
  const keys = Object.keys(shape) as (keyof T & string)[];
  return (v, at) => {
    if (!isPlainObject(v)) fail(at.say.type(at.name, what));
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const spec = shape[k] as Schema<unknown> | Optional<unknown>;
      const raw = own(v, k);
      if (typeof spec === 'function') out[k] = spec(raw, child(at, k));
      else if (raw !== undefined && !(raw === null && spec.nullIsAbsent)) out[k] = spec.optional(raw, child(at, k));
    }
    return out as T;
  };
}

/** Objects told apart by a tag key (`type`, `status`, `kind`): each tag has its own schema. */
export function union<T>(tag: string, shapes: Record<string, Schema<T>>, unknownTag?: (tag: unknown, at: At) => string): Schema<T> {
  return (v, at) => {
    if (!isPlainObject(v)) fail(at.say.type(at.name, 'an object'));
    const t = own(v, tag);
    if (typeof t !== 'string' || !Object.prototype.hasOwnProperty.call(shapes, t)) {
      fail(unknownTag ? unknownTag(t, at) : at.say.type(at.name ? `${at.name}.${tag}` : tag, `one of ${Object.keys(shapes).join(', ')}`));
    }
    return shapes[t](v, at);
  };
}

/** A schema whose result is then reshaped or checked further (`fn` may call `fail`). */
export function map<A, B>(s: Schema<A>, fn: (a: A, at: At) => B): Schema<B> {
  return (v, at) => fn(s(v, at), at);
}

/** The same check with one fixed message, for formats whose messages name a record, not a field. */
export function says<T>(s: Schema<T>, message: string): Schema<T> {
  return (v, at) => {
    try {
      return s(v, at);
    } catch (e) {
      if (e instanceof SchemaError) fail(message);
      throw e;
    }
  };
}

/** Reads one key of an already-checked object with a schema; absent (undefined or null) gives undefined. */
export function field<T>(o: Record<string, unknown>, key: string, s: Schema<T>, say: Wording = PLAIN, name = key): T | undefined {
  const v = own(o, key);
  return v === undefined || v === null ? undefined : s(v, { name, say });
}
