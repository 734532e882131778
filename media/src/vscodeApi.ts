// The webview's only channel to the host. Messages are typed by the shared protocol.
import type { WebviewMessage } from '../../src/views/protocol';

interface VsCodeApi {
  postMessage(msg: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function send(msg: WebviewMessage): void {
  api.postMessage(msg);
}

/** View state kept across hide/show (the webview is torn down while hidden). */
export interface SavedState { query?: string; expanded?: string[]; collapsed?: string[] }

export function loadState(): SavedState {
  const s = api.getState();
  if (typeof s !== 'object' || s === null) return {};
  const o = s as Record<string, unknown>;
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
  return { query: typeof o.query === 'string' ? o.query : undefined, expanded: strings(o.expanded), collapsed: strings(o.collapsed) };
}

export function saveState(s: SavedState): void {
  api.setState(s);
}
