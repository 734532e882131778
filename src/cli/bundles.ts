// Loads one of the CLI's command bundles from dist/ beside the entry, on first use: `engram recall` parses
// the store's code and nothing of the MCP server, `engram mcp` the server and not the team server. The
// path is computed so esbuild keeps each bundle out of dist/cli.js (esbuild.mjs builds them, README "CLI
// start-up"); require, not import(): Node's ESM loader alone costs ~15 ms CPU to start.
import * as path from 'path';

/** The command bundles, by the file esbuild.mjs writes for each (scripts/cliBundles.mjs). */
export interface CliBundles {
  'cliStore.js': typeof import('./storeCommands');
  'cliMcp.js': typeof import('../mcp/command');
  'cliServer.js': typeof import('../server/cliEntry');
  'cliConnect.js': typeof import('../mcp/connectCommand');
  'hook.js': typeof import('../hookMain');
}

export function loadBundle<K extends keyof CliBundles>(file: K): CliBundles[K] {
  return require(path.join(__dirname, file)) as CliBundles[K];
}
