// The HTTP face of `engram serve` (node:http, JSON): routes to the service, a Bearer token on every
// route but /v1/health, body size limits while reading, a rate limit per token, and errors as
// {"error": {"code", "message"}} — a database outage answers 503 with Retry-After, anything unexpected
// 500 with a reference the server log has the stack under. Nothing internal reaches a client.
import * as http from 'http';
import { randomBytes } from 'crypto';
import type { Logger } from '../core/types';
import { ApiError } from './apiError';
import type { ChangeHub } from './changeHub';
import { isUnavailable, type Caller } from './db';
import type { RateLimiter } from './rateLimit';
import type { TeamService } from './service';
import type { TokenCache } from './tokenCache';
import { isLoopback, KEY_HEADER, keyMatches, LOCAL_ROUTE, runTokenOp } from './localControl';

export const MAX_BODY = 1024 * 1024;
export const MAX_BATCH_BODY = 8 * 1024 * 1024;
/** Longest a change-feed poll is held open (seconds). */
export const MAX_WAIT_S = 30;

export interface HttpOptions {
  service: TeamService;
  hub: ChangeHub;
  limiter: RateLimiter;
  tokens: TokenCache;
  log: Logger;
  health(): Promise<{ status: number; body: object }>;
  /** MCP over Streamable HTTP at /mcp (mcpHttp.ts), with the caller already authenticated. */
  mcp?(req: http.IncomingMessage, res: http.ServerResponse, caller: Caller, body: unknown): Promise<void>;
  maxBody?: number;
  /** The embedded server's key for token commands from this machine (localControl.ts). */
  localKey?: string;
}

type Handler = (caller: Caller, body: unknown, params: string[], url: URL) => Promise<{ status?: number; body: object }>;

interface Route { method: string; path: RegExp; handler: Handler; maxBody?: number }

export function routes(o: HttpOptions): Route[] {
  const s = o.service;
  const id = '([^/]{1,200})';
  return [
    { method: 'POST', path: /^\/v1\/memories$/, handler: async (c, b) => ({ status: 201, body: await s.record(c, b) }) },
    { method: 'POST', path: /^\/v1\/memories:batch$/, maxBody: MAX_BATCH_BODY, handler: async (c, b) => ({ body: await s.recordBatch(c, b) }) },
    { method: 'POST', path: /^\/v1\/recall$/, handler: async (c, b) => ({ body: await s.recall(c, b) }) },
    { method: 'GET', path: /^\/v1\/review$/, handler: async c => ({ body: await s.proposed(c) }) },
    { method: 'GET', path: /^\/v1\/changes$/, handler: (c, _b, _p, url) => changes(o, c, url) },
    { method: 'GET', path: new RegExp(`^/v1/memories/${id}$`), handler: async (c, _b, p) => ({ body: await s.get(c, p[0]) }) },
    { method: 'DELETE', path: new RegExp(`^/v1/memories/${id}$`), handler: async (c, _b, p) => ({ body: await s.forget(c, p[0]) }) },
    { method: 'POST', path: new RegExp(`^/v1/memories/${id}/feedback$`), handler: async (c, b, p) => ({ body: await s.feedback(c, p[0], b) }) },
    { method: 'POST', path: new RegExp(`^/v1/memories/${id}/approve$`), handler: async (c, _b, p) => ({ body: await s.approve(c, p[0]) }) },
  ];
}

/** `GET /v1/changes?after=N&wait=S`: a page of changes, held open up to S seconds while there are none. */
async function changes(o: HttpOptions, c: Caller, url: URL): Promise<{ body: object }> {
  const after = intParam(url, 'after', 0, 0, Number.MAX_SAFE_INTEGER);
  const wait = intParam(url, 'wait', 0, 0, MAX_WAIT_S);
  const limit = intParam(url, 'limit', 1000, 1, 1000);
  if (wait > 0 && (await o.service.revision(c)) <= after) await o.hub.wait(c.tenant, after, wait * 1000);
  return { body: await o.service.changes(c, after, limit) };
}

function intParam(url: URL, name: string, dflt: number, min: number, max: number): number {
  const v = url.searchParams.get(name);
  if (v === null || v === '') return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new ApiError(400, 'bad_request', `"${name}" must be a whole number from ${min} to ${max}`);
  return n;
}

export function createHttpServer(o: HttpOptions): http.Server {
  const table = routes(o);
  const server = http.createServer((req, res) => {
    handle(o, table, req, res).catch(e => fail(o.log, res, e));
  });
  // Slow or stalled clients must not hold sockets for ever.
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  return server;
}

async function handle(o: HttpOptions, table: Route[], req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://engram.invalid');
  const method = req.method ?? 'GET';
  if (url.pathname === '/v1/health') {
    if (method !== 'GET') throw new ApiError(405, 'method_not_allowed', 'use GET');
    const h = await o.health();
    return send(res, h.status, h.body);
  }
  if (url.pathname === LOCAL_ROUTE && o.localKey) {
    // Token commands from this machine's CLI while the embedded database is ours: the key, from loopback only.
    if (method !== 'POST') throw new ApiError(405, 'method_not_allowed', 'use POST');
    if (!isLoopback(req.socket.remoteAddress) || !keyMatches(req.headers[KEY_HEADER], o.localKey)) throw new ApiError(403, 'forbidden', 'token commands come from the server\'s own machine with its key');
    const body = await readJson(req, o.maxBody ?? MAX_BODY);
    return send(res, 200, await runTokenOp(o.service.db, body));
  }
  const isMcp = url.pathname === '/mcp';
  const route = isMcp ? undefined : table.find(r => r.path.test(url.pathname) && r.method === method);
  if (!isMcp && !route) {
    const known = table.some(r => r.path.test(url.pathname));
    throw known ? new ApiError(405, 'method_not_allowed', `${method} is not allowed here`) : new ApiError(404, 'not_found', 'no such route');
  }
  const caller = await authenticate(o, req);
  const wait = o.limiter.take(caller.tokenId);
  if (wait) throw new ApiError(429, 'rate_limited', `too many requests for this token; retry in ${wait} s`, wait);
  const body = method === 'GET' || method === 'DELETE' ? undefined : await readJson(req, route?.maxBody ?? o.maxBody ?? MAX_BODY);
  if (isMcp) {
    if (!o.mcp) throw new ApiError(404, 'not_found', 'MCP is not served here');
    return o.mcp(req, res, caller, body);
  }
  const params = route!.path.exec(url.pathname)!.slice(1).map(p => decodeURIComponent(p));
  let out: Awaited<ReturnType<Handler>>;
  try {
    out = await route!.handler(caller, body, params, url);
  } catch (e) {
    // The transaction found the token revoked before its notification came: forget it here too.
    if (e instanceof ApiError && e.status === 401) o.tokens.revoked(caller.tokenId);
    throw e;
  }
  send(res, out.status ?? 200, out.body);
}

async function authenticate(o: HttpOptions, req: http.IncomingMessage): Promise<Caller & { tokenId: string }> {
  const h = req.headers.authorization ?? '';
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  if (!m) throw new ApiError(401, 'unauthorized', 'send Authorization: Bearer <token> (engram serve token create makes one)');
  const caller = await o.tokens.verify(m[1]);
  if (!caller) throw new ApiError(401, 'unauthorized', 'the token is not valid (unknown or revoked)');
  return caller;
}

/** Reads a JSON body, refusing it as soon as it passes `max` bytes (never buffered whole). */
/** An empty body reads as undefined: each handler says what it needs (approve needs nothing). */
function readJson(req: http.IncomingMessage, max: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > max) { req.resume(); reject(new ApiError(413, 'too_large', `the body is over ${max} bytes`)); return; }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (c: Buffer) => {
      if (done) return;
      size += c.length;
      if (size > max) { done = true; req.resume(); reject(new ApiError(413, 'too_large', `the body is over ${max} bytes`)); return; }
      chunks.push(c);
    });
    req.on('error', e => { if (!done) { done = true; reject(e); } });
    req.on('end', () => {
      if (done) return;
      done = true;
      const text = Buffer.concat(chunks).toString('utf8');
      if (!text.trim()) { resolve(undefined); return; }
      try { resolve(JSON.parse(text)); } catch { reject(new ApiError(400, 'bad_request', 'the body is not valid JSON')); }
    });
  });
}

export function send(res: http.ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  if (res.headersSent) { res.end(); return; }
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers });
  res.end(text);
}

/** The one place an error becomes an answer. */
export function fail(log: Logger, res: http.ServerResponse, e: unknown): void {
  if (e instanceof ApiError) {
    const headers: Record<string, string> = {};
    if (e.status === 401) headers['www-authenticate'] = 'Bearer realm="engram"';
    if (e.retryAfter) headers['retry-after'] = String(e.retryAfter);
    return send(res, e.status, { error: { code: e.code, message: e.message } }, headers);
  }
  if (isUnavailable(e)) {
    log.warn(`database unavailable: ${(e as Error).message}`);
    return send(res, 503, { error: { code: 'unavailable', message: 'the database is unavailable; this request was not acknowledged, retry later' } }, { 'retry-after': '5' });
  }
  const ref = randomBytes(4).toString('hex');
  log.error(`request failed (ref ${ref}): ${(e as Error)?.stack ?? String(e)}`);
  send(res, 500, { error: { code: 'internal', message: `internal error (ref ${ref} in the server log)` } });
}
