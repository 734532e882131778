// The layering every bundle enforces (esbuild.mjs): src/core is pure TypeScript (no vscode, no Node
// built-ins, nothing from the layers above it); src/store is Node-only (no vscode, nothing from
// src/vscode or src/views); src/views (what host and webview share) and the webview (media/src) run in
// a browser (no vscode, no Node, nothing of the host but src/core and src/views). A violating import fails
// the build with the rule it broke, so the layering is checked on every build, not only by review.
// tools/lint/eslint.config.mjs checks the same layering per file in `npm run lint`; keep the two in step.
import { isBuiltin } from 'node:module';
import { dirname, relative, resolve, sep } from 'node:path';

const RULES = [
  { layer: 'src/core/', vscode: true, node: true, above: ['src/views/', 'src/store/', 'src/vscode/', 'src/mcp/', 'src/server/', 'src/cli', 'src/extension'], why: 'src/core is pure TypeScript' },
  { layer: 'src/store/', vscode: true, node: false, above: ['src/views/', 'src/vscode/', 'src/server/', 'src/extension'], why: 'src/store is Node-only' },
  // The team server runs in its own process (engram serve), on core, store and the MCP tools.
  { layer: 'src/server/', vscode: true, node: false, above: ['src/views/', 'src/vscode/', 'src/cli', 'src/extension'], why: 'src/server is the team server (Node, no VS Code)' },
  // The views' protocols and view model are shared by the host and the webview, so they keep the
  // webview's rules; the webview may import them and src/core, nothing else of the host.
  { layer: 'src/views/', vscode: true, node: true, above: ['src/store/', 'src/vscode/', 'src/mcp/', 'src/server/', 'src/cli', 'src/extension'], why: 'src/views is shared with the webview (a browser)' },
  { layer: 'media/src/', vscode: true, node: true, above: ['src/store/', 'src/vscode/', 'src/mcp/', 'src/server/', 'src/cli', 'src/extension'], why: 'the webview runs in a browser' },
];

/** The esbuild plugin; `root` is the repository folder the layer paths are relative to. */
export function layering(root) {
  const rel = p => relative(root, p).split(sep).join('/');
  return {
    name: 'layering',
    setup(build) {
      build.onResolve({ filter: /.*/ }, args => {
        if (!args.importer || args.kind === 'entry-point') return undefined;
        const from = rel(args.importer);
        const rule = RULES.find(r => from.startsWith(r.layer));
        if (!rule) return undefined;
        const spec = args.path;
        let problem;
        if (rule.vscode && spec === 'vscode') problem = `imports 'vscode'`;
        else if (rule.node && isBuiltin(spec)) problem = `imports the Node built-in '${spec}'`;
        else if (spec.startsWith('.')) {
          const target = rel(resolve(dirname(args.importer), spec));
          const above = rule.above.find(a => target.startsWith(a));
          if (above) problem = `imports ${target} (${above.replace(/\/$/, '')} is a layer above it)`;
        }
        return problem ? { errors: [{ text: `layering: ${from} ${problem}; ${rule.why}` }] } : undefined;
      });
    },
  };
}
