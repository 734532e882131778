// The CLI's bundles, one place for esbuild.mjs and the tests that build the same CLI (test/unit/buildCli.ts).
// dist/cli.js is the entry users, agents' configs and the extension run: it parses the arguments, finds
// the store and masks output, and requires the one bundle the command needs from beside itself
// (src/cli/bundles.ts), so `engram recall` parses no MCP SDK, zod, ajv or team server, and `engram mcp`
// no team server. esbuild builds each entry whole (no shared chunks: CommonJS has none), so a file two
// bundles import is in both; only one of them is ever loaded for a command, and they share no state.
export const CLI_ENTRIES = {
  cli: 'src/cli.ts',
  cliStore: 'src/cli/storeCommands.ts',
  cliMcp: 'src/mcp/command.ts',
  cliServer: 'src/server/cliEntry.ts',
  cliConnect: 'src/mcp/connectCommand.ts',
  // Claude Code's hook runs on every Edit and Bash call: its own small entry, which loads cliStore.js
  // only to store episodes (Stop, SessionEnd). `engram hook` through cli.js runs it too.
  hook: 'src/hookMain.ts',
};
