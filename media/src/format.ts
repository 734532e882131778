// Human-readable numbers, ages and durations for the webview.
import { formatMessage } from '../../src/core/l10n';
import { t } from './l10n';

const lang = document.documentElement.lang || 'en';
const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto', style: 'short' });
const dateFmt = new Intl.DateTimeFormat(lang, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
const shortDate = new Intl.DateTimeFormat(lang, { month: 'short', day: 'numeric' });

export function age(at: number, now = Date.now()): string {
  const s = Math.round((at - now) / 1000);
  const abs = Math.abs(s);
  if (abs < 45) return rtf.format(0, 'second');
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(s / 3600), 'hour');
  if (abs < 30 * 86_400) return rtf.format(Math.round(s / 86_400), 'day');
  if (abs < 365 * 86_400) return rtf.format(Math.round(s / (30 * 86_400)), 'month');
  return rtf.format(Math.round(s / (365 * 86_400)), 'year');
}

export function dateTime(at: number): string { return dateFmt.format(at); }
export function day(at: number): string { return shortDate.format(at); }

export function duration(ms: number): string {
  const min = Math.round(ms / 60_000);
  if (min < 1) return t('{0} s', Math.max(1, Math.round(ms / 1000)));
  if (min < 60) return t('{0} min', min);
  const h = Math.floor(min / 60);
  const rest = min % 60;
  if (h < 48) return rest ? t('{0} h {1} min', h, rest) : t('{0} h', h);
  return t('{0} d', Math.round(h / 24));
}

/** `one` / `many` are translated templates with {0} for the count ("{0} episode", "{0} episodes"). */
export function plural(n: number, one: string, many: string): string {
  return formatMessage(n === 1 ? one : many, [n]);
}
