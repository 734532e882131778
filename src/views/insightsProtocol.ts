// The insights webview's own messages: the host posts the aggregated insights (core/insights.ts); the
// webview sends only what both views share (common.ts: `ready`, `run`). Parsed on receipt like every
// message; no 'vscode', DOM or Node imports.
import type { InsightsData } from '../core/insights';
import { arr, lit, obj, opt, union, type Schema } from '../core/schema';
import type { Outcome } from '../core/types';
import { failed, maturity, num, text } from './common';

export type InsightsState = { status: 'loading' } | { status: 'ready'; data: InsightsData } | { status: 'error'; message: string };

export type InsightsHostMessage = { type: 'insights'; state: InsightsState };

const counts = obj<Record<Outcome, number>>({ success: num, partial: num, failure: num, abandoned: num });
const insightsData = obj<InsightsData>({
  now: num,
  totals: obj<InsightsData['totals']>({ memories: num, episodes: num, lessons: num, rules: num, facts: num, constraints: num }),
  weeks: arr(obj<InsightsData['weeks'][number]>({ weekStart: num, counts }), 520),
  signatures: arr(obj<InsightsData['signatures'][number]>({ signature: text(2000), label: text(2000), count: num }), 100),
  promotions: arr(obj<InsightsData['promotions'][number]>({ at: num, total: num, to: maturity }), 10_000),
  timeSaved: obj<InsightsData['timeSaved']>({
    totalMs: num, prevented: num, unestimated: num,
    rows: arr(obj<InsightsData['timeSaved']['rows'][number]>({ signature: text(2000), label: text(2000), prevented: num, medianMs: opt(num) }), 100),
  }),
});
const insightsState = union<InsightsState>('status', {
  loading: obj<{ status: 'loading' }>({ status: lit('loading') }),
  ready: obj<{ status: 'ready'; data: InsightsData }>({ status: lit('ready'), data: insightsData }),
  error: failed,
});

export const insightsHostSchemas = {
  insights: obj<InsightsHostMessage>({ type: lit('insights'), state: insightsState }),
} satisfies { [K in InsightsHostMessage['type']]: Schema<InsightsHostMessage> };
