// src/views: the vscode-free half of the Engram views, shared by the extension host (src/vscode/sidebar)
// and the webview bundle (media/src). One protocol file per webview (memoriesProtocol.ts,
// insightsProtocol.ts), what both say alike (common.ts), the memories view model that turns memories
// into those messages (memoriesModel.ts), and this file: the one channel both views use. It lives in its
// own folder, not src/vscode, because the webview runs in a browser: no 'vscode', no DOM, no Node, only
// src/core below it (scripts/layering.mjs and the ESLint boundary rules enforce that).
//
// Every message crossing the boundary is parsed with these schemas (core/schema) on the receiving side;
// anything unknown or malformed is dropped (and logged by the caller). Parsers copy only the keys they
// know into fresh objects, so a hostile `__proto__`/`constructor` key can never reach a prototype.
// Both views share one webview bundle and one host class (viewHost.ts), so the parsers accept every
// view's messages; each view's host and app ignore (and log) what is not theirs.
import { tryParse, union, type Schema } from '../core/schema';
import { commonHostSchemas, commonWebviewSchemas, type CommonHostMessage, type CommonWebviewMessage, type Parser } from './common';
import { insightsHostSchemas, type InsightsHostMessage } from './insightsProtocol';
import { memoriesHostSchemas, memoriesWebviewSchemas, type MemoriesHostMessage, type MemoriesWebviewMessage } from './memoriesProtocol';

export type HostMessage = CommonHostMessage | MemoriesHostMessage | InsightsHostMessage;
export type WebviewMessage = CommonWebviewMessage | MemoriesWebviewMessage;

type H<K extends HostMessage['type']> = Extract<HostMessage, { type: K }>;
type W<K extends WebviewMessage['type']> = Extract<WebviewMessage, { type: K }>;

// Spelled out in the order the messages were always listed (a rejection names the known types in it).
const webviewMessage = union<WebviewMessage>('type', {
  ready: commonWebviewSchemas.ready,
  ...memoriesWebviewSchemas,
  run: commonWebviewSchemas.run,
} satisfies { [K in WebviewMessage['type']]: Schema<W<K>> });

const hostMessage = union<HostMessage>('type', {
  init: commonHostSchemas.init,
  ...memoriesHostSchemas,
  notice: commonHostSchemas.notice,
  ...insightsHostSchemas,
} satisfies { [K in HostMessage['type']]: Schema<H<K>> });

/** Parses a message the webview sent to the host. */
export const parseWebviewMessage: Parser<WebviewMessage> = v => tryParse(webviewMessage, v);

/** Parses a message the host sent to the webview. */
export const parseHostMessage: Parser<HostMessage> = v => tryParse(hostMessage, v);
