// What both Engram webview views share: the HTML shell, the `ready` handshake (nothing is posted before
// the webview says it listens), validation of every incoming message, and a small record of what was
// posted so integration tests can check the round trip.
import * as vscode from 'vscode';
import type { Logger } from '../../core/types';
import { buildHtml, localResourceRoots } from './html';
import { describeRejected, type ViewKind } from '../../views/common';
import { parseWebviewMessage, type HostMessage, type WebviewMessage } from '../../views/protocol';

export interface ViewHostState {
  resolved: boolean;
  ready: boolean;
  visible: boolean;
  /** The last messages posted (newest last), for tests. */
  posted: HostMessage[];
  /** How many incoming messages were rejected as unknown or malformed. */
  rejected: number;
  /** How many posted messages the webview accepted (postMessage resolved true). */
  delivered: number;
}

export abstract class ViewHost implements vscode.WebviewViewProvider, vscode.Disposable {
  protected view?: vscode.WebviewView;
  protected readonly disposables: vscode.Disposable[] = [];
  private viewDisposables: vscode.Disposable[] = [];
  private ready = false;
  private readyWaiters: (() => void)[] = [];
  private readonly posted: HostMessage[] = [];
  private rejected = 0;
  private delivered = 0;

  constructor(
    protected readonly extensionUri: vscode.Uri,
    protected readonly logger: Logger,
    readonly kind: ViewKind,
    private readonly title: string,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.viewDisposables.forEach(d => d.dispose());
    this.viewDisposables = [];
    this.view = view;
    this.ready = false;
    // The shell (with its content security policy) goes in before the options: setting options re-renders
    // whatever html the webview holds, and the empty html it starts with has no policy, which VS Code
    // reports as "created a webview without a content security policy" (issue 21).
    view.webview.html = buildHtml(view.webview, this.extensionUri, this.kind, this.title);
    view.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: localResourceRoots(this.extensionUri) };
    this.viewDisposables.push(
      view.webview.onDidReceiveMessage(raw => this.receive(raw)),
      // A hidden webview view is usually torn down and says `ready` again when shown (then it gets fresh
      // state); posts in between resolve undelivered and cost nothing, so `ready` is not reset here.
      view.onDidChangeVisibility(() => this.onVisibilityChanged(view.visible)),
      view.onDidDispose(() => {
        if (this.view === view) { this.view = undefined; this.ready = false; }
      }),
    );
  }

  /** Resolves once the webview has loaded and said `ready` (immediately if it already has). */
  whenReady(): Promise<void> {
    if (this.ready) return Promise.resolve();
    return this.nextReady();
  }

  /** Resolves at the next `ready` (a webview that reloads after being shown again). */
  nextReady(): Promise<void> {
    return new Promise(resolve => this.readyWaiters.push(resolve));
  }

  get isReady(): boolean { return this.ready && !!this.view; }
  get isVisible(): boolean { return !!this.view?.visible; }

  testState(): ViewHostState {
    return { resolved: !!this.view, ready: this.ready, visible: this.isVisible, posted: [...this.posted], rejected: this.rejected, delivered: this.delivered };
  }

  /** Handles a raw message exactly as if the webview had sent it (also used by tests). */
  receive(raw: unknown): void {
    const msg = parseWebviewMessage(raw);
    if (!msg) {
      this.rejected++;
      this.logger.warn(`${this.kind} view: ignored a malformed or unknown webview message (${describeRejected(raw)})`);
      return;
    }
    if (msg.type === 'ready') {
      if (msg.view !== this.kind) {
        this.logger.warn(`${this.kind} view: webview announced itself as ${msg.view}`);
        return;
      }
      this.ready = true;
      this.readyWaiters.splice(0).forEach(r => r());
    }
    this.handle(msg).catch(e => this.logger.error(e instanceof Error ? e : String(e)));
  }

  /** Posts when the webview listens; otherwise drops the message (the webview asks for fresh state on `ready`). */
  protected post(msg: HostMessage): boolean {
    if (!this.view || !this.ready) return false;
    this.posted.push(msg);
    if (this.posted.length > 100) this.posted.splice(0, this.posted.length - 100);
    void this.view.webview.postMessage(msg).then(ok => { if (ok) this.delivered++; }, e => this.logger.warn(`${this.kind} view: post failed: ${String(e)}`));
    return true;
  }

  protected abstract handle(msg: WebviewMessage): Promise<void>;
  protected onVisibilityChanged(_visible: boolean): void { /* subclasses refresh when shown */ }

  dispose(): void {
    this.viewDisposables.forEach(d => d.dispose());
    this.disposables.forEach(d => d.dispose());
  }
}

/** Calls `fn` once after `ms` of quiet; `cancel` drops a pending call. */
export function debounce(fn: () => void, ms: number): { (): void; cancel(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const call = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => { timer = undefined; fn(); }, ms);
  };
  call.cancel = () => { if (timer) clearTimeout(timer); timer = undefined; };
  return call;
}
