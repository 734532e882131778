// MCP over Streamable HTTP at /mcp, driven by the official SDK client with the Bearer token, the way an
// agent on another machine connects to the team's memory with a URL and a token.
import * as assert from 'assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { nullLogger } from '../../src/core/types';
import { startServer, type RunningServer } from '../../src/server/serve';
import { createToken } from '../../src/server/tokens';
import { onEachDatabase } from './serverDb';

type ToolText = { content: { type: string; text: string }[]; isError?: boolean };

async function connect(s: RunningServer, token: string): Promise<Client> {
  const client = new Client({ name: 'engram-http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

const textOf = (r: unknown) => (r as ToolText).content.map(c => c.text).join('\n');

onEachDatabase('MCP over Streamable HTTP', backend => {
  let s: RunningServer;
  let reviewer: string;
  let member: string;
  let stranger: string;
  before(async () => {
    s = await startServer({ ...backend().where(), port: 0, log: nullLogger, rate: 0 });
    reviewer = (await createToken(s.db, { tenant: 'mcp-team', principal: 'rita', role: 'reviewer' })).token;
    member = (await createToken(s.db, { tenant: 'mcp-team', principal: 'max', role: 'member' })).token;
    stranger = (await createToken(s.db, { tenant: 'mcp-other', principal: 'olga', role: 'admin' })).token;
  });
  after(async () => { await s?.close(); });

  it('lists the five tools; remembers, recalls as delimited data, takes feedback, shows history and forgets', async () => {
    const c = await connect(s, reviewer);
    try {
      const tools = (await c.listTools()).tools.map(t => t.name).sort();
      assert.deepStrictEqual(tools, ['feedback', 'forget', 'recall', 'remember', 'show']);
      const saved = textOf(await c.callTool({ name: 'remember', arguments: {
        kind: 'lesson', errorText: "Error: listen EADDRINUSE: address already in use :::3000",
        rootCause: 'a previous dev server still held port 3000', fixApproach: 'Stopped the old server (kill the PID from lsof -i :3000)',
      } }));
      const id = /Stored lesson (\S+)/.exec(saved)?.[1];
      assert.ok(id, saved);
      const recalled = textOf(await c.callTool({ name: 'recall', arguments: { query: 'Error: listen EADDRINUSE: address already in use :::3000' } }));
      assert.ok(recalled.includes(id!), recalled);
      assert.match(recalled, /DATA/);
      assert.match(recalled, /1 memory shown/);
      const fb = textOf(await c.callTool({ name: 'feedback', arguments: { id, outcome: 'prevented' } }));
      assert.match(fb, /prevented recorded/);
      const shown = textOf(await c.callTool({ name: 'show', arguments: { id } }));
      assert.match(shown, /author: rita; team/);
      assert.match(shown, /prevented/);
      // Another tenant's agent sees none of it.
      const o = await connect(s, stranger);
      try {
        const none = await o.callTool({ name: 'show', arguments: { id } }) as ToolText;
        assert.strictEqual(none.isError, true);
        assert.match(textOf(none), /no memory with id/);
      } finally { await o.close(); }
      assert.match(textOf(await c.callTool({ name: 'forget', arguments: { id } })), /Forgot/);
      assert.doesNotMatch(textOf(await c.callTool({ name: 'recall', arguments: { query: 'EADDRINUSE address already in use :::3000', all: true } })), new RegExp(id!));
    } finally {
      await c.close();
    }
  });

  it('tells a member its memory waits for review, and refuses calls without a valid token (401)', async () => {
    const c = await connect(s, member);
    try {
      const r = textOf(await c.callTool({ name: 'remember', arguments: { kind: 'fact', content: 'The mobile app talks to api-v2 only since the migration' } }));
      assert.match(r, /proposed to the team/);
      const bad = await c.callTool({ name: 'feedback', arguments: { id: 'nope', outcome: 'prevented' } }) as ToolText;
      assert.strictEqual(bad.isError, true);
    } finally {
      await c.close();
    }
    const res = await fetch(`${s.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) });
    assert.strictEqual(res.status, 401);
    await assert.rejects(connect(s, 'eng_' + 'B'.repeat(43)), /401|Unauthorized|invalid/i);
  });
});
