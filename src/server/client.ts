// A client of `engram serve` over fetch, for the CLI (`--server URL` with ENGRAM_TOKEN, `engram team
// push`) and the extension (src/vscode/teamServer.ts). No dependencies: the extension bundles it.
// Errors carry the server's JSON message, or say the server could not be reached.

export class ServerError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) { super(message); }
}

/** The server did not answer at all (down, wrong URL, no network): callers fall back to what they have. */
export class ServerUnreachable extends Error {}

export interface ClientOptions {
  url: string;
  token?: string;
  /** Per request (ms); default 10 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Aborts every request in flight (a window closing while a change poll is held open). */
  signal?: AbortSignal;
}

export class TeamClient {
  private readonly base: string;
  constructor(private readonly opts: ClientOptions) {
    const u = new URL(opts.url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`the team server URL must be http(s)://…, not ${u.protocol}`);
    this.base = u.toString().replace(/\/+$/, '');
  }

  async request<T>(method: string, path: string, body?: unknown, opts: { timeoutMs?: number } = {}): Promise<T> {
    const f = this.opts.fetch ?? fetch;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.opts.token) headers.authorization = `Bearer ${this.opts.token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await f(`${this.base}${path}`, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
        signal: this.signalFor(opts.timeoutMs ?? this.opts.timeoutMs ?? 10_000),
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code ?? (e as Error).name;
      throw new ServerUnreachable(`the team server at ${this.base} did not answer (${cause})`);
    }
    const text = await res.text();
    let json: unknown;
    try { json = text ? JSON.parse(text) : {}; } catch { json = undefined; }
    if (!res.ok) {
      const err = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
      throw new ServerError(res.status, err?.code ?? 'http_error', err?.message ?? `HTTP ${res.status}`);
    }
    if (json === undefined) throw new ServerError(res.status, 'bad_response', 'the team server answered something that is not JSON');
    return json as T;
  }

  private signalFor(ms: number): AbortSignal {
    const timeout = AbortSignal.timeout(ms);
    return this.opts.signal ? AbortSignal.any([timeout, this.opts.signal]) : timeout;
  }

  health() { return this.request<{ ok: boolean; database: string; vectors: string; schema: number }>('GET', '/v1/health'); }
  record(memory: object) { return this.request<{ id: string; status: string; merged?: boolean; flagged?: string[] }>('POST', '/v1/memories', memory); }
  recordBatch(memories: object[]) { return this.request<{ results: ({ id: string; status: string; merged?: boolean } | { error: string })[] }>('POST', '/v1/memories:batch', { memories }); }
  recall(q: { query: string; file?: string; k?: number; proactive?: boolean; kinds?: string[] }) { return this.request<RecallAnswer>('POST', '/v1/recall', q); }
  get(id: string) { return this.request<Record<string, unknown>>('GET', `/v1/memories/${encodeURIComponent(id)}`); }
  forget(id: string) { return this.request<{ forgotten: string }>('DELETE', `/v1/memories/${encodeURIComponent(id)}`); }
  feedback(id: string, b: { outcome: string; reason?: string; workspace?: string }) { return this.request<{ id: string; maturity: string; previousMaturity: string; confidence: number }>('POST', `/v1/memories/${encodeURIComponent(id)}/feedback`, b); }
  changes(after: number, waitS = 0, limit?: number) {
    return this.request<ChangePageJson>('GET', `/v1/changes?after=${after}&wait=${waitS}${limit ? `&limit=${limit}` : ''}`, undefined, { timeoutMs: (waitS + 10) * 1000 });
  }
}

export interface RecallAnswer { query: string; file?: string; results: RecallResultJsonLike[] }

export interface RecallResultJsonLike {
  id: string; kind: string; score: number; why: string[]; title: string; scope: string[]; maturity: string; confidence: number; weak?: boolean;
  rootCause?: string; fixApproach?: string; resolution?: string; content?: string; instruction?: string; flagged?: string[];
}

export interface ChangePageJson {
  revision: number; head: number; more: boolean;
  memories: { memory: Record<string, unknown> & { id: string }; visibility: string; status: string; author: string }[];
  deleted: string[];
}
