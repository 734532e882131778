// The MCP server as VS Code would launch it: the definition the provider returns is a runnable command
// over this window's store (an MCP client spawns it, lists the tools and recalls a memory the window
// wrote), and the palette command to connect other agents exists.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mcpDefinition } from '../../src/vscode/mcp';
import { engram, seedLesson, token } from './surfaceHelpers';

suite('MCP server definition', function () {
  this.timeout(120_000);

  test('the provider\'s definition runs: tools listed, and recall answers from the window\'s store', async () => {
    const api = await engram();
    assert.strictEqual(typeof vscode.lm.registerMcpServerDefinitionProvider, 'function', 'this host has no MCP provider API');
    const marker = token('mcpcause');
    const lesson = await seedLesson(api, { errorText: `error TS2322: Type 'Date' is not assignable to type 'string'. ${marker}`, rootCause: `${marker} the API returns ISO strings`, fixApproach: 'call toISOString() before sending' });
    const def = mcpDefinition(api.services);
    assert.ok(def.args.includes('mcp') && def.args.includes(api.services.storeDir), def.args.join(' '));
    const transport = new StdioClientTransport({ command: def.command, args: def.args, env: { ...process.env as Record<string, string>, ...(def.env as Record<string, string>) }, stderr: 'pipe' });
    const client = new Client({ name: 'engram-host-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const tools = (await client.listTools()).tools.map(t => t.name).sort();
      assert.deepStrictEqual(tools, ['feedback', 'forget', 'recall', 'remember', 'show']);
      const r = await client.callTool({ name: 'recall', arguments: { query: `Type 'Date' is not assignable to type 'string'. ${marker}`, all: true } });
      const text = (r.content as { type: string; text?: string }[]).map(c => c.text ?? '').join('\n');
      assert.ok(text.includes(lesson.id), `recall over MCP did not return the window's memory:\n${text.slice(0, 600)}`);
    } finally {
      await client.close();
    }
    assert.ok((await vscode.commands.getCommands(true)).includes('engram.connectAgent'));
  });
});
