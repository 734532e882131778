// Owns the parts of a running extension and ends them in reverse order of construction, the
// `Disposable._register` habit of the GitHub PR extension: a part registered after another may use it
// until its own disposal, never the other way round. VS Code's own registrations (commands, providers,
// listeners) stay in `context.subscriptions`, which VS Code disposes after `deactivate` has finished.
import type * as vscode from 'vscode';
import type { Logger } from '../core/types';
import { formatError } from './errors';

type Part = { name: string; dispose(): unknown };

export class Lifetime {
  private readonly parts: Part[] = [];
  private readonly shutdownTasks: { name: string; run: () => Promise<void> }[] = [];
  private shutdownDone: Promise<void> | undefined;
  private disposed: Promise<void> | undefined;

  constructor(private readonly logger: Logger) {}

  /** Takes `part` into this lifetime: it is disposed before every part registered earlier. */
  register<T extends vscode.Disposable | { dispose(): unknown }>(part: T, name = part.constructor?.name ?? 'part'): T {
    if (this.disposed) throw new Error(`${name} registered after shutdown`);
    this.parts.push({ name, dispose: () => part.dispose() });
    return part;
  }

  /**
   * Work that must finish before any part is disposed when the window closes or reloads (pending user
   * actions, queued episode writes). Runs in reverse order of registration, like disposal.
   */
  beforeShutdown(name: string, run: () => Promise<void>): void {
    this.shutdownTasks.push({ name, run });
  }

  /**
   * deactivate(): the shutdown tasks (newest first), then the parts (newest first). Idempotent; after a
   * dispose it does nothing (the tasks would write to closed stores).
   */
  shutdown(): Promise<void> {
    this.shutdownDone ??= this.disposed ?? (async () => {
      for (const t of [...this.shutdownTasks].reverse()) {
        try { await t.run(); } catch (e) { this.logger.error(`shutdown (${t.name}): ${formatError(e)}`); }
      }
      await this.dispose();
    })();
    return this.shutdownDone;
  }

  /** Disposes the parts newest first, each awaited, one failure not stopping the rest. Idempotent. */
  dispose(): Promise<void> {
    this.disposed ??= (async () => {
      for (const p of [...this.parts].reverse()) {
        try { await p.dispose(); } catch (e) { this.logger.warn(`disposing ${p.name}: ${formatError(e)}`); }
      }
    })();
    return this.disposed;
  }
}
