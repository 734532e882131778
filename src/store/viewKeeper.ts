// When the store's view (view.bin: the log folded, with every index, as of one log position) is read and
// written. Opening reads it when it covers the log as it is, then folds only the log's tail; when it is
// missing, stale or damaged the whole log is read instead (the view is derived, never trusted over the
// log). Writers write the next view when what they hold on top of it would make the next opener fold a
// long tail (when idle, and at close) or holds too much memory (at once: a large import merges as it
// goes, each merge a linear pass, growing geometrically, so importing stays linear overall).
import * as path from 'path';
import type { Logger, Memory, MemoryEvent } from '../core/types';
import type { DerivedIndexes } from './derivedIndexes';
import type { EventLog } from './eventLog';
import { LayeredState } from './layeredState';
import type { LockOptions } from './lock';
import { buildView } from './viewBuilder';
import { ViewFile } from './viewFile';
import { VIEW_FILE } from './viewFormat';
import { publishView } from './viewStore';

/** Memories re-indexed on top before a view is written at once: this many, or a third of the base. */
const MERGE_MIN_DOCS = 2000;
const MERGE_SHARE = 3;
/** Written when idle or at close: past this many re-indexed memories, changed memories, or log bytes. */
const IDLE_MIN_DOCS = 256;
const IDLE_MIN_ENTRIES = 2000;
const IDLE_MIN_BYTES = 1 << 20;
/** Quiet time before an idle write. */
const IDLE_DELAY_MS = 3000;
/** A replaced view's file stays open this long for a recall that was reading it (ms). */
const RETIRE_MS = 10_000;

export interface ViewHost {
  readonly dir: string;
  readonly log: EventLog;
  readonly logger: Logger;
  readonly readOnly: boolean;
  readonly lock?: LockOptions;
  readonly indexes: DerivedIndexes;
  state: LayeredState;
}

export type ViewDue = 'now' | 'idle' | undefined;

export class ViewKeeper {
  private readonly retired = new Set<ViewFile>();
  private timer?: ReturnType<typeof setTimeout>;

  /** `idle` is called after the quiet time, when a write is due; it runs `write` in the write queue. */
  constructor(private readonly host: ViewHost, private readonly idle: () => void) {}

  /**
   * The state from the view and the events after it, or undefined when the view cannot serve (the
   * reason in `problem`, unless there simply is none): then the caller reads the whole log.
   */
  async open(): Promise<{ state: LayeredState; tail: MemoryEvent[]; warnings: string[] } | { problem?: string }> {
    const found = ViewFile.open(this.host.dir);
    if (!(found instanceof ViewFile)) return { problem: found?.problem };
    const tail = await this.host.log.readFrom(found.header.log);
    if (!tail) {
      found.close();
      return { problem: `${VIEW_FILE} covers another state of the log (generation ${found.header.log.generation})` };
    }
    return { state: new LayeredState(found), tail: tail.events, warnings: tail.warnings };
  }

  /** Whether a view should be written: at once, when idle (and at close), or not yet. */
  due(): ViewDue {
    const { state, indexes, log } = this.host;
    if (this.host.readOnly) return undefined;
    const top = indexes.lexical.topLayer.size;
    const base = state.base;
    const baseDocs = base?.docs ?? 0;
    if (top >= Math.max(MERGE_MIN_DOCS, baseDocs / MERGE_SHARE) || state.overlaySize >= Math.max(2 * MERGE_MIN_DOCS, baseDocs / MERGE_SHARE)) return 'now';
    if (!base) return state.size > 0 ? 'idle' : undefined;
    const at = log.readPosition;
    const tailBytes = at.generation === base.header.log.generation ? at.offset - base.header.log.offset : Infinity;
    if (top >= IDLE_MIN_DOCS || state.overlaySize >= IDLE_MIN_ENTRIES || tailBytes >= IDLE_MIN_BYTES) return 'idle';
    return undefined;
  }

  /** After a change: a write at once is the caller's (it is in the write queue); an idle one is timed here. */
  noteChange(): ViewDue {
    const due = this.due();
    if (due === 'idle' && !this.timer) {
      this.timer = setTimeout(() => { this.timer = undefined; if (this.due()) this.idle(); }, IDLE_DELAY_MS);
      this.timer.unref?.();
    }
    return due;
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * Writes the view of the state as it is, publishes it, and makes it the state's base (the memory held
   * on top is then released). The caller is in the write queue and has taken every event the log holds
   * up to its read position. False when the log's position cannot be told (nothing written).
   */
  async write(): Promise<boolean> {
    const { dir, log, indexes } = this.host;
    this.cancel();
    const pos = log.position();
    if (!pos) return false;
    const state = this.host.state;
    const tmp = await buildView({ dir, state, words: indexes.lexical, signaturesOf: id => indexes.signaturesOf(id), log: pos });
    // Opened before it is published: whatever another process renames there next, this is the view we built.
    const ours = ViewFile.open(dir, path.basename(tmp));
    const published = await publishView(dir, tmp, pos, this.host.lock);
    if (!(ours instanceof ViewFile)) {
      this.host.logger.warn(`the view just written does not read back (${ours?.problem ?? 'missing'}); keeping the state in memory`);
      return false;
    }
    if (!published) this.host.logger.debug(`${VIEW_FILE} not published: the log moved on, or another process published a newer one`);
    this.adopt(ours, state.materialized());
    return true;
  }

  /** Makes `view` the base of a fresh state (same content as the current one), the old base retired. */
  adopt(view: ViewFile, full?: Map<string, Memory>): void {
    const old = this.host.state.base;
    this.host.state = new LayeredState(view, full);
    this.host.indexes.rebase();
    if (old && old !== view) this.retire(old);
  }

  /** A base that is no longer the state's: closed a little later (a recall may still be reading it). */
  retire(view: ViewFile): void {
    this.retired.add(view);
    const t = setTimeout(() => { view.close(); this.retired.delete(view); }, RETIRE_MS);
    t.unref?.();
  }

  close(): void {
    this.cancel();
    for (const v of this.retired) v.close();
    this.retired.clear();
    this.host.state.base?.close();
  }
}
