// Forgets waiting for Undo, one list for the whole window: a forget asked in the palette shows its Undo
// in the sidebar too, and the window writes every pending one before its stores close.
//
// Why a delay and not "forget now, undo by recording it again": the log tombstones a forgotten id, so an
// undo would have to re-record the memory under a new id, losing its history, its evidence links and
// every reference to the id (team file, constraints, chat buttons), and the text the user wanted gone
// would already be in the log. Waiting keeps the id and writes nothing the user takes back.
// No 'vscode' import, so its timing is unit-tested in plain Node.

/** How long a forgotten memory waits for Undo before the deletion is written. */
export const FORGET_DELAY_MS = 6000;

export type ForgetEvent =
  | { type: 'pending'; id: string; title: string; deadline: number }
  | { type: 'settled'; id: string; undone: boolean; error?: unknown };

interface Pending { timer: ReturnType<typeof setTimeout>; title: string; deadline: number; reason: string }

export class PendingForgets {
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<(e: ForgetEvent) => void>();

  /** Every scheduled, undone and written forget, whichever surface started it. */
  onDidChange(listener: (e: ForgetEvent) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => { this.listeners.delete(listener); } };
  }

  private fire(e: ForgetEvent): void {
    for (const l of [...this.listeners]) l(e);
  }

  /** `write` does the deletion (the store's forget) when the delay is over. */
  constructor(private readonly write: (id: string, reason: string) => Promise<void>, private readonly delayMs = FORGET_DELAY_MS) {}

  /** Starts the Undo window; the deadline, or undefined when this memory is already waiting. */
  schedule(id: string, title: string, reason: string): number | undefined {
    if (this.pending.has(id)) return undefined;
    const deadline = Date.now() + this.delayMs;
    const timer = setTimeout(() => void this.commit(id), this.delayMs);
    this.pending.set(id, { timer, title, deadline, reason });
    this.fire({ type: 'pending', id, title, deadline });
    return deadline;
  }

  /** True when the memory was still waiting and is now kept; false when it is too late. */
  undo(id: string): boolean {
    const p = this.pending.get(id);
    if (!p) return false;
    clearTimeout(p.timer);
    this.pending.delete(id);
    this.fire({ type: 'settled', id, undone: true });
    return true;
  }

  isPending(id: string): boolean { return this.pending.has(id); }

  list(): { id: string; title: string; deadline: number }[] {
    return [...this.pending].map(([id, p]) => ({ id, title: p.title, deadline: p.deadline }));
  }

  /** Writes every forget still in its Undo window (the window is closing: the user meant it). */
  async flush(): Promise<void> {
    for (const id of [...this.pending.keys()]) {
      clearTimeout(this.pending.get(id)!.timer);
      await this.commit(id);
    }
  }

  private async commit(id: string): Promise<void> {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    try {
      await this.write(id, p.reason);
      this.fire({ type: 'settled', id, undone: false });
    } catch (error) {
      // The memory is still there: say so, as if undone, and let the surface show why.
      this.fire({ type: 'settled', id, undone: true, error });
    }
  }

  dispose(): void {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
    this.listeners.clear();
  }
}
