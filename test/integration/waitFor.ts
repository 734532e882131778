// The one way integration tests wait: poll a probe until it gives a value (not undefined/false), or fail
// with what was awaited and the probe's last error. Tests wait on the state the work produces, never on
// a fixed sleep (a sleep passes vacuously when the work is slower than the sleep).
export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v as T;
    } catch (e) { last = e; }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise(r => setTimeout(r, 100));
  }
}
