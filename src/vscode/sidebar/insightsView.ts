// The "Insights" view: episodes per week by outcome, recurrent signatures, promotions over time and an
// estimate of time saved. Aggregation is pure (core/insights.ts); this file only feeds it and posts.
import * as vscode from 'vscode';
import { computeInsights } from '../../core/insights';
import { formatError } from '../errors';
import type { Services } from '../services';
import type { WebviewMessage } from '../../views/protocol';
import { debounce, ViewHost } from './viewHost';

export class InsightsView extends ViewHost {
  static readonly viewType = 'engram.insights';
  // Insights summarise the whole log: recomputing on every single change would be wasted work.
  private readonly refreshSoon = debounce(() => void this.refresh(), 1000);

  constructor(private readonly services: Services, private readonly captureAvailable: boolean) {
    super(services.context.extensionUri, services.logger, 'insights', vscode.l10n.t('Engram insights'));
    this.disposables.push(services.onDidChangeMemories(() => { if (this.isReady && this.isVisible) this.refreshSoon(); }));
  }

  protected async handle(msg: WebviewMessage): Promise<void> {
    switch (msg.type) {
      case 'ready':
        this.post({ type: 'init', view: 'insights', now: Date.now(), captureAvailable: this.captureAvailable });
        return this.refresh();
      case 'run':
        if (msg.action === 'refresh') return this.refresh();
        if (msg.action === 'showPanel') { await vscode.commands.executeCommand('engram.showPanel'); return; }
        if (msg.action === 'showLog') { this.services.logChannel.show(); return; }
        if (msg.action === 'recordLesson') { await vscode.commands.executeCommand('engram.recordLesson'); return; }
        return;
      default:
        // Memory actions belong to the memories view; a stray one here is a bug worth seeing in the log.
        this.logger.warn(`insights view: ignored "${msg.type}" (not an insights message)`);
    }
  }

  async refresh(): Promise<void> {
    this.post({ type: 'insights', state: { status: 'loading' } });
    try {
      const store = await this.services.store();
      const started = Date.now();
      const data = computeInsights({ memories: store.list({ includeQuarantined: true }), history: id => store.history(id), now: Date.now() });
      this.logger.debug(`insights computed in ${Date.now() - started} ms`);
      this.post({ type: 'insights', state: { status: 'ready', data } });
    } catch (e) {
      this.post({ type: 'insights', state: { status: 'error', message: formatError(e) } });
    }
  }

  override dispose(): void {
    this.refreshSoon.cancel();
    super.dispose();
  }
}
