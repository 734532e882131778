// `npm start`: VS Code in your browser with Engram loaded from this repo, on a copy of demo/.
// Builds, makes sure the cached host is there, copies demo/ to a temp folder, starts code-server on
// 127.0.0.1:<PORT> (default 8080, else the next free one) and prints the URL. Ctrl-C stops and cleans up.
// Env: PORT, ENGRAM_DEMO_DIR (another folder to open instead of demo/), ENGRAM_KEEP_RUN=1.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { build, cleanupAll, copyWorkspace, demoWindow, ensureHost, freePort, installWorkspaceDeps, log, makeRunDir, onCleanup, repoRoot, seedUserSettings, startServer, workbenchUrl } from './lib.mjs';

const host = ensureHost();
build();
const runDir = makeRunDir('engram-start-');
onCleanup(() => {
  if (process.env.ENGRAM_KEEP_RUN) console.error(`run folder kept: ${runDir}`);
  else fs.rmSync(runDir, { recursive: true, force: true });
});
const source = path.resolve(process.env.ENGRAM_DEMO_DIR || path.join(repoRoot, 'demo'));
const workspace = copyWorkspace(source, path.join(runDir, 'demo'));
const userDataDir = path.join(runDir, 'user-data');
seedUserSettings(userDataDir, demoWindow.settings);
const requested = process.env.PORT ? Number(process.env.PORT) : 8080;
const port = await freePort(requested);
if (port !== requested) log(`port ${requested} is busy; using ${port}`);
// The demo brings its own TypeScript (a devDependency, installed into the copy from the npm cache), so
// `npm run build` in the integrated terminal runs tsc as the README says, whatever PATH the shell has.
installWorkspaceDeps(workspace);
// ENGRAM_DEMO=1: the extension reveals its view once it starts, beside the README the welcome flow opens.
const server = await startServer(host, { runDir, port, userDataDir, env: demoWindow.env });
// The smoke-test driver payload carries extensionDevelopmentPath; no tests path, so the window stays.
const url = workbenchUrl(server, { folder: workspace, skipWelcome: demoWindow.skipWelcome });

console.log(`
  Engram is running in VS Code (${path.basename(path.dirname(path.dirname(path.dirname(host.codeServer))))}).
  Open this URL in a browser on this machine:

    ${url}

  Workspace: ${workspace} (a temp copy of ${path.relative(repoRoot, source) || source}; see its README)
  Server log: ${server.logFile}
  Press Ctrl-C to stop.
`);

// Stay up until Ctrl-C (lib.mjs's signal handlers run the cleanup) or until the server dies.
const alive = setInterval(() => {
  try { process.kill(server.pid, 0); } catch {
    console.error('code-server exited; see', server.logFile);
    clearInterval(alive);
    void cleanupAll().finally(() => process.exit(1));
  }
}, 2000);
