// The context every feature receives, built whole before any feature (rust-analyzer's `Ctx`): the stores
// (opened lazily on first use), the change events, the stale checker, and the lifetime that ends the
// features' parts in reverse order of construction and closes the stores last. Features get what other
// features provide (capture, the sidebar's reveal) as arguments when activate() builds them, never
// through this object. Every surface recalls through `recall`, so scope, owners and caps are applied the
// same way everywhere.
import * as path from 'path';
import * as vscode from 'vscode';
import type { Logger, RecallQuery, RecallResult } from '../core/types';
import { workspaceIdOf } from '../core/workspaceId';
import { toWorkspaceFile } from '../core/workspacePath';
import type { Embedder, MemoryStore } from '../store/index';
import { readConfig, type EngramConfig } from './config';
import { formatError } from './errors';
import { OutcomeLedger } from '../core/capture/outcomeLedger';
import { RecallService } from '../core/recallService';
import { Lifetime } from './lifetime';
import { PendingForgets } from './pendingForgets';
import { createStaleChecker, type StaleChecker } from './staleChecker';
import { loadStoreModule } from './storeLoader';

export class Services implements vscode.Disposable {
  private storePromise?: Promise<MemoryStore>;
  private personalPromise?: Promise<MemoryStore>;
  private readonly lifetime: Lifetime;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after any memory changes (any writer in this window). */
  readonly onDidChangeMemories = this.changed.event;
  private readonly recalled = new vscode.EventEmitter<RecallQuery>();
  /** Fires with each query `recall` is asked, before it runs (what the surfaces ask, for tests and traces). */
  readonly onDidRecall = this.recalled.event;
  /** One stale checker per window, shared by chat, tools, hover, instructions and the stale guard. */
  readonly stale: StaleChecker;

  /** Forgets waiting for Undo, shared by every surface; written before the stores close. */
  readonly pendingForgets = new PendingForgets(async (id, reason) => {
    try {
      await (await this.store()).forget(id, reason);
    } catch (e) {
      this.logger.error(e instanceof Error ? e : String(e));
      throw e;
    }
    this.changed.fire();
  });

  constructor(
    readonly context: vscode.ExtensionContext,
    readonly logger: Logger,
    readonly logChannel: vscode.LogOutputChannel,
  ) {
    this.lifetime = new Lifetime(logger);
    // The core's own parts, first, so they end last: the stores outlive every feature that writes to them.
    this.lifetime.register({ dispose: () => this.closeStores() }, 'stores');
    this.lifetime.register(this.changed, 'memory change events');
    this.lifetime.register(this.recalled, 'recall events');
    this.lifetime.register(this.pendingForgets, 'pending forgets');
    // Registered first, so it runs after every feature's task: a forget asked during shutdown still lands.
    this.beforeShutdown('pending forgets', () => this.pendingForgets.flush());
    this.stale = createStaleChecker(this);
    this.recaller = new RecallService({
      workspace: () => this.store(),
      personal: () => this.personalStore(),
      owners: () => ['workspace', ...(this.config().recall.includeTeam ? ['team' as const] : [])],
      defaultK: () => this.config().recall.maxResults,
      isStale: m => this.stale(m),
      onRecall: q => this.recalled.fire(q),
      warn: m => this.logger.warn(m),
    });
  }

  /** The one recall service (core/recallService.ts) every surface of this window asks through `recall`. */
  readonly recaller: RecallService;

  config(): EngramConfig { return readConfig(); }

  /** Memories shown by any surface and the user's verdicts on them, so capture can turn a later fix into
   * a `prevented` outcome without overruling the user (core/capture/outcomeLedger.ts). */
  readonly outcomes = new OutcomeLedger();

  /** Workspace storage folder (global storage when no folder is open). ENGRAM_STORE_DIR overrides it
   * for tests and demos that seed a store before the window opens. */
  get storeDir(): string {
    if (process.env.ENGRAM_STORE_DIR) return process.env.ENGRAM_STORE_DIR;
    const base = this.context.storageUri ?? this.context.globalStorageUri;
    return path.join(base.fsPath, 'memory');
  }

  get personalStoreDir(): string {
    return path.join(this.context.globalStorageUri.fsPath, 'personal');
  }

  /** A stable id for this workspace (the folder's name and a hash of its URI, core/workspaceId.ts), used
   * as the owner's tenant and in per-workspace evidence. */
  get workspaceId(): string {
    const folder = vscode.workspace.workspaceFolders?.[0];
    return folder ? workspaceIdOf(folder.uri.toString(), folder.name) : 'no-folder';
  }

  store(): Promise<MemoryStore> {
    if (!this.storePromise) {
      this.storePromise = this.openStore(this.storeDir).catch(e => {
        this.storePromise = undefined; // allow a retry after the user fixes the cause
        throw e;
      });
    }
    return this.storePromise;
  }

  async personalStore(): Promise<MemoryStore | undefined> {
    if (!this.config().recall.includePersonal) return undefined;
    if (!this.personalPromise) this.personalPromise = this.openStore(this.personalStoreDir);
    return this.personalPromise;
  }

  private embedderPromise?: Promise<Embedder>;

  /** Folder where a downloaded embedding model lives (shared by every workspace). */
  get modelCacheDir(): string {
    return path.join(this.context.globalStorageUri.fsPath, 'models');
  }

  /**
   * The embedding model when one is on disk (local folder setting or an earlier download), else the
   * model-free embedder; the log says which and why. Shared by the workspace and personal stores.
   */
  private embedder(): Promise<Embedder> {
    if (!this.embedderPromise) {
      const cfg = this.config().embedding;
      this.embedderPromise = loadStoreModule().createEmbedder({
        enabled: cfg.enabled,
        model: cfg.model,
        localModelPath: cfg.localModelPath || undefined,
        cacheDir: this.modelCacheDir,
        allowRemoteModels: false, // downloads happen only through the Download Embedding Model command
        logger: this.logger,
      }).then(choice => {
        if (choice.fallbackReason) this.logger.info(`recall runs without an embedding model (words and error signatures only): ${choice.fallbackReason}`);
        else this.logger.info(`embedding model: ${choice.embedder.id}`);
        return choice.embedder;
      });
    }
    return this.embedderPromise;
  }

  private async openStore(dir: string): Promise<MemoryStore> {
    const started = Date.now();
    const mod = loadStoreModule();
    const embedder = await this.embedder();
    const store = await mod.MemoryStore.open(dir, { logger: this.logger, workspaceId: this.workspaceId, embedder });
    for (const w of store.warnings) {
      this.logger.warn(w);
    }
    if (store.warnings.length) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Engram recovered its memory store: {0}', store.warnings.join('; ')));
    }
    store.onDidChange(() => this.changed.fire());
    this.logger.info(`memory store open at ${dir} (${store.count()} memories, ${Date.now() - started} ms)`);
    // Where this folder's memories live, for `engram mcp`/`engram where` run in the folder (not for test
    // runs or a store given by ENGRAM_STORE_DIR: neither is the folder's real store).
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (dir === this.storeDir && folder && !process.env.ENGRAM_STORE_DIR && this.context.extensionMode !== vscode.ExtensionMode.Test) {
      const r = mod.publishStore(folder.uri.fsPath, dir);
      if (r.error) this.logger.warn(`could not publish the store location for the CLI: ${r.error}`);
      // `engram mcp` recalls from the personal store exactly when this window does.
      const p = mod.publishPersonal(this.config().recall.includePersonal ? this.personalStoreDir : undefined);
      if (p.error) this.logger.warn(`could not publish the personal store location for the CLI: ${p.error}`);
      // ...and embeds with the model this window loaded, so their vectors are this window's.
      const m = mod.publishModel(embedder.kind === 'model' ? (embedder as { location?: { dir: string } }).location?.dir : undefined);
      if (m.error) this.logger.warn(`could not publish the embedding model's location for the CLI: ${m.error}`);
    }
    return store;
  }

  /**
   * Recall through the one service: the enabled owners, the personal store, merged by score and capped.
   * `noteShown: false` is for results computed ahead of time (the hover cache): only what a person
   * actually sees may earn automatic credit. `forModel`: the results go to a language model or an agent
   * (chat, the tools), so stale memories are checked and left out before they take a place; the
   * editor's own surfaces rely on the stale guard's background checks and never wait on file lookups.
   */
  async recall(q: RecallQuery, opts: { noteShown?: boolean; forModel?: boolean } = {}): Promise<RecallResult[]> {
    const results = await this.recaller.recall(q, { checkStale: !!opts.forModel });
    if (opts.noteShown !== false) this.noteShown(results.map(r => r.memory.id), q.file);
    return results;
  }

  noteShown(ids: string[], file?: string): void {
    const at = Date.now();
    this.outcomes.noteShown(ids, file, at);
    this.queueAccess(ids, at);
  }

  // Access counts feed the cleanup rule ("recalled fewer than N times"). "Relevant now" re-runs recall as
  // the cursor moves, so each memory counts at most once an hour per window, written in one batch.
  private readonly lastCounted = new Map<string, number>();
  private pendingAccess = new Set<string>();
  private accessTimer?: ReturnType<typeof setTimeout>;

  private queueAccess(ids: string[], at: number): void {
    for (const id of ids) {
      if (at - (this.lastCounted.get(id) ?? 0) < 3_600_000) continue;
      this.lastCounted.set(id, at);
      this.pendingAccess.add(id);
    }
    if (!this.pendingAccess.size || this.accessTimer) return;
    this.accessTimer = setTimeout(() => {
      this.accessTimer = undefined;
      const batch = [...this.pendingAccess];
      this.pendingAccess = new Set();
      void this.store().then(s => s.markAccessed(batch)).catch(e => this.logger.warn(`could not count recalls: ${formatError(e)}`));
    }, 5000);
  }

  /** Ids of memories shown since `since` (for `file` when given). */
  shownSince(since: number, file?: string): string[] {
    return this.outcomes.shownSince(since, file);
  }

  fireChanged(): void { this.changed.fire(); }

  /**
   * Closes the stores and forgets the embedder, so the next use reopens them with what is on disk now
   * (after a model download, the index is rebuilt with the model's vectors on that open).
   */
  async reopenStores(): Promise<void> {
    const stores = [this.storePromise, this.personalPromise];
    const embedder = this.embedderPromise;
    this.storePromise = this.personalPromise = this.embedderPromise = undefined;
    for (const p of stores) { try { await (await p)?.close(); } catch (e) { this.logger.warn(`closing a store: ${formatError(e)}`); } }
    try { (await embedder)?.dispose(); } catch { /* a failed embedder has nothing to dispose */ }
    await this.store();
    this.changed.fire();
  }

  /** Workspace-relative path (forward slashes) of a file inside the workspace, else undefined. */
  workspaceRelative(uri: vscode.Uri): string | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return undefined;
    return toWorkspaceFile(uri.fsPath, folder.uri.fsPath);
  }

  /** A path a model passed (absolute, or relative to the first workspace folder) in workspace-relative form. */
  workspaceFile(file: string): string | undefined {
    const abs = /^([a-zA-Z]:)?[\\/]/.test(file) ? vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file)) : undefined;
    const folder = abs ?? vscode.workspace.workspaceFolders?.[0];
    return folder ? toWorkspaceFile(file, folder.uri.fsPath) : undefined;
  }

  /** Takes a feature's part into the window's lifetime: disposed before everything registered earlier. */
  register<T extends vscode.Disposable>(part: T, name?: string): T {
    return this.lifetime.register(part, name);
  }

  /**
   * Work that must finish before the parts are disposed and the stores close when the window closes or
   * reloads (pending user actions, queued episode writes). Runs in reverse order of registration.
   */
  beforeShutdown(name: string, run: () => Promise<void>): void {
    this.lifetime.beforeShutdown(name, run);
  }

  /** deactivate(): the shutdown tasks (newest first), then the parts (newest first), the stores last. Idempotent. */
  shutdown(): Promise<void> {
    return this.lifetime.shutdown();
  }

  /** Ends every part without the shutdown tasks (VS Code disposing the subscriptions). Idempotent. */
  dispose(): Promise<void> {
    return this.lifetime.dispose();
  }

  private async closeStores(): Promise<void> {
    if (this.accessTimer) clearTimeout(this.accessTimer);
    const stores = [this.storePromise, this.personalPromise].filter(Boolean) as Promise<MemoryStore>[];
    for (const p of stores) { try { await (await p).close(); } catch { /* closing on shutdown */ } }
    // The stores were given the embedder, so they leave its worker to us.
    if (this.embedderPromise) { try { (await this.embedderPromise).dispose(); } catch { /* shutting down */ } }
  }
}
