// What both Engram webviews (memories, insights) say alike: the `ready` handshake and the host's `init`,
// notices, named host commands, and the limits and schema pieces the per-view protocols build on.
// No 'vscode', DOM or Node imports: the extension host and the webview bundle both import it.
import { bool, isPlainObject, lit, num as number, obj, oneOf, own, str, type Schema } from '../core/schema';
import type { Maturity } from '../core/types';

export type ViewKind = 'memories' | 'insights';

/** Host commands the webview may ask for by name (never a command id string from the webview). */
export type RunAction = 'recordLesson' | 'showLog' | 'refresh' | 'showInsights' | 'showPanel';

export type CommonHostMessage =
  | { type: 'init'; view: ViewKind; now: number; captureAvailable: boolean }
  | { type: 'notice'; level: 'info' | 'error'; text: string };

export type CommonWebviewMessage =
  | { type: 'ready'; view: ViewKind }
  | { type: 'run'; action: RunAction };

/** A parser returns a fresh, typed copy of valid input, or `undefined`. */
export type Parser<T> = (v: unknown) => T | undefined;

// ------------------------------------------------------------------- schema pieces for the protocols

const MAX_TEXT = 100_000;
export const MAX_ITEMS = 1000;

export const text = (max = MAX_TEXT) => str({ max });
export const id = str({ min: 1, max: 200 });
export const num = number();
export const maturity = oneOf<Maturity>(['observation', 'pattern', 'rule', 'constraint']);
export const failed = obj<{ status: 'error'; message: string }>({ status: lit('error'), message: text(5000) });
const viewKind = oneOf<ViewKind>(['memories', 'insights']);

type H<K extends CommonHostMessage['type']> = Extract<CommonHostMessage, { type: K }>;
type W<K extends CommonWebviewMessage['type']> = Extract<CommonWebviewMessage, { type: K }>;

export const commonHostSchemas = {
  init: obj<H<'init'>>({ type: lit('init'), view: viewKind, now: num, captureAvailable: bool }),
  notice: obj<H<'notice'>>({ type: lit('notice'), level: oneOf(['info', 'error']), text: text(5000) }),
} satisfies { [K in CommonHostMessage['type']]: Schema<H<K>> };

export const commonWebviewSchemas = {
  ready: obj<W<'ready'>>({ type: lit('ready'), view: viewKind }),
  run: obj<W<'run'>>({ type: lit('run'), action: oneOf<RunAction>(['recordLesson', 'showLog', 'refresh', 'showInsights', 'showPanel']) }),
} satisfies { [K in CommonWebviewMessage['type']]: Schema<W<K>> };

/** Short description of a rejected message for the log (never the whole payload: it may be large). */
export function describeRejected(v: unknown): string {
  if (!isPlainObject(v)) return `non-object (${Array.isArray(v) ? 'array' : typeof v})`;
  const t = own(v, 'type');
  return typeof t === 'string' ? `type "${t.slice(0, 40)}"` : 'no type';
}
