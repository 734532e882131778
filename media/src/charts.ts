// Inline SVG charts built with DOM APIs: no chart library, no remote scripts or fonts. Colours come
// from theme variables through CSS classes; every chart carries a text alternative.
import type { InsightsData } from '../../src/core/insights';
import { maturityText } from '../../src/core/reasons';
import type { Maturity } from '../../src/core/types';
import { svg } from './dom';
import { day, duration } from './format';
import { OUTCOME_LABEL } from './labels';
import { t } from './l10n';

const OUTCOME_ORDER = ['success', 'partial', 'failure', 'abandoned'] as const;

function chartRoot(width: number, height: number, label: string): SVGSVGElement {
  // l10n-ignore: an SVG keyword, not words
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label, class: 'chart', preserveAspectRatio: 'xMidYMid meet' });
  root.append(svg('title', {}, label));
  return root;
}

function niceMax(n: number): number {
  if (n <= 4) return Math.max(1, n);
  const pow = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * pow >= n) return m * pow;
  return n;
}

/** Stacked bars: episodes per week, one segment per outcome. */
export function weeklyOutcomes(data: InsightsData, W = 300): SVGSVGElement {
  const H = 150, left = 24, right = 6, top = 8, bottom = 20;
  const weeks = data.weeks;
  const totals = weeks.map(w => OUTCOME_ORDER.reduce((s, o) => s + w.counts[o], 0));
  const max = niceMax(Math.max(0, ...totals));
  const sum = totals.reduce((a, b) => a + b, 0);
  const label = t('Episodes per week for the last {0} weeks: {1} in total.', weeks.length, sum) + ' ' +
    weeks.filter((_, i) => totals[i]).map(w => t('week of {0}: {1}', day(w.weekStart), OUTCOME_ORDER.filter(o => w.counts[o]).map(o => `${w.counts[o]} ${OUTCOME_LABEL[o]}`).join(', '))).slice(-6).join('; ') + (sum ? '.' : '');
  const root = chartRoot(W, H, label.trim());
  const plotH = H - top - bottom;
  const slot = (W - left - right) / weeks.length;
  const barW = Math.max(4, slot * 0.62);
  for (const tick of [0, max / 2, max]) {
    const y = top + plotH - (tick / max) * plotH;
    root.append(svg('line', { x1: left, x2: W - right, y1: y, y2: y, class: 'grid' }));
    root.append(svg('text', { x: left - 4, y: y + 3, class: 'axis', 'text-anchor': 'end' }, String(Math.round(tick * 10) / 10)));
  }
  weeks.forEach((w, i) => {
    const x = left + i * slot + (slot - barW) / 2;
    let y = top + plotH;
    for (const o of OUTCOME_ORDER) {
      const n = w.counts[o];
      if (!n) continue;
      const hgt = (n / max) * plotH;
      y -= hgt;
      root.append(svg('rect', { x, y, width: barW, height: Math.max(0.5, hgt), class: `seg outcome-${o}`, rx: 1 },
        svg('title', {}, t('Week of {0}: {1} {2}', day(w.weekStart), n, OUTCOME_LABEL[o]))));
    }
    // Label every few weeks counted back from the current one, so the newest week always has a date.
    const every = Math.max(1, Math.ceil(weeks.length / Math.max(2, Math.floor((W - left) / 60))));
    if ((weeks.length - 1 - i) % every === 0) {
      root.append(svg('text', { x: x + barW / 2, y: H - 6, class: 'axis', 'text-anchor': 'middle' }, day(w.weekStart)));
    }
  });
  return root;
}

/** Horizontal bars: the most recurrent error signatures. */
export function recurrentSignatures(data: InsightsData, W = 300): SVGSVGElement {
  const rows = data.signatures;
  const rowH = 30, H = Math.max(1, rows.length) * rowH + 4;
  const label = t('Most recurrent errors: {0}.', rows.map(r => `${r.label} (${r.count})`).join('; '));
  const root = chartRoot(W, H, label);
  const max = Math.max(1, ...rows.map(r => r.count));
  rows.forEach((r, i) => {
    const y = i * rowH + 2;
    const fit = Math.max(12, Math.floor(W / 6.2));
    const text = r.label.length > fit ? r.label.slice(0, fit - 1) + '…' : r.label;
    root.append(svg('text', { x: 0, y: y + 11, class: 'bar-label' }, text, svg('title', {}, r.label)));
    const w = Math.max(2, ((W - 30) * r.count) / max);
    root.append(svg('rect', { x: 0, y: y + 16, width: w, height: 9, rx: 2, class: 'hbar' }, svg('title', {}, `${r.label}: ${r.count}`)));
    root.append(svg('text', { x: w + 4, y: y + 24, class: 'axis' }, String(r.count)));
  });
  return root;
}

/** Step line: promotions so far, over time. */
export function promotionsOverTime(data: InsightsData, W = 300): SVGSVGElement {
  const pts = data.promotions;
  const H = 120, left = 24, right = 8, top = 8, bottom = 20;
  const counts: Record<string, number> = {};
  for (const p of pts) counts[p.to] = (counts[p.to] ?? 0) + 1;
  const label = pts.length
    ? t('{0} promotions since {1}: {2}.', pts.length, day(pts[0].at), Object.entries(counts).map(([k, v]) => t('{0} to {1}', v, maturityText(k as Maturity, t))).join(', '))
    : t('{0} promotions.', 0);
  const root = chartRoot(W, H, label);
  // Same window as the weekly chart at least, so a burst of promotions today is a step, not a wall.
  const windowStart = data.weeks.length ? data.weeks[0].weekStart : data.now - 84 * 86_400_000;
  const t0 = Math.min(pts.length ? pts[0].at : windowStart, windowStart);
  const t1 = Math.max(data.now, t0 + 1);
  const max = niceMax(Math.max(1, pts.length));
  const plotW = W - left - right, plotH = H - top - bottom;
  const x = (at: number) => left + ((at - t0) / (t1 - t0)) * plotW;
  const y = (n: number) => top + plotH - (n / max) * plotH;
  for (const tick of [0, max]) {
    root.append(svg('line', { x1: left, x2: W - right, y1: y(tick), y2: y(tick), class: 'grid' }));
    root.append(svg('text', { x: left - 4, y: y(tick) + 3, class: 'axis', 'text-anchor': 'end' }, String(tick)));
  }
  let d = `M ${x(t0)} ${y(0)}`;
  for (const p of pts) d += ` H ${x(p.at)} V ${y(p.total)}`;
  d += ` H ${x(t1)}`;
  root.append(svg('path', { d, class: 'step-line' }));
  for (const p of pts) {
    root.append(svg('circle', { cx: x(p.at), cy: y(p.total), r: 2.5, class: `dot maturity-${p.to}` }, svg('title', {}, t('{0}: promoted to {1} ({2} so far)', day(p.at), maturityText(p.to, t), p.total))));
  }
  root.append(svg('text', { x: left, y: H - 6, class: 'axis' }, day(t0)));
  root.append(svg('text', { x: W - right, y: H - 6, class: 'axis', 'text-anchor': 'end' }, day(t1)));
  return root;
}

export function timeSavedLabel(data: InsightsData): string {
  const s = data.timeSaved;
  if (!s.prevented) return t('No prevented errors recorded yet.');
  const saved = s.prevented === 1 ? t('≈ {0} saved by 1 prevented error', duration(s.totalMs)) : t('≈ {0} saved by {1} prevented errors', duration(s.totalMs), s.prevented);
  return saved + (s.unestimated ? ' ' + t('({0} without a timed episode, not counted).', s.unestimated) : '.');
}
