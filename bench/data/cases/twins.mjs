// Scope twins: the same error text stored twice, for two parts of a monorepo with different causes
// and fixes. A query carries a file in one scope and must get that scope's memory.
const web = (file, rootCause, fixApproach) => ({ name: 'web', scope: ['packages/web/**'], file, rootCause, fixApproach });
const api = (file, rootCause, fixApproach) => ({ name: 'api', scope: ['packages/api/**'], file, rootCause, fixApproach });

export default [
  {
    id: 'twin-ts-path-alias', tool: 'tsc', stack: ['typescript'], errorCategory: 'module-resolution', tags: ['paths', 'alias', 'monorepo'], project: ['acme', 'acme'],
    a: { 'src/App.ts': `import { Button } from '@/components/Button';\nexport const b = Button;\n` },
    b: { 'src/routes.ts': `import { db } from '@/lib/db';\nexport const r = db;\n` },
    twins: [
      web('packages/web/src/pages/Home.tsx', 'Vite resolves "@/" through resolve.alias in vite.config.ts, so the app runs, but tsc only reads tsconfig: packages/web/tsconfig.json has no matching "paths" entry.', 'Add `"baseUrl": ".", "paths": { "@/*": ["src/*"] }` to packages/web/tsconfig.json and let vite read it with vite-tsconfig-paths so the two never drift.'),
      api('packages/api/src/server.ts', 'The API is compiled by plain tsc and run by Node: even with "paths" in tsconfig, tsc does not rewrite "@/..." in the emitted JS, so aliases break at runtime; the alias was copied from the web package.', 'Do not use "@/" aliases in packages/api: use relative imports, or Node subpath imports ("imports": { "#lib/*": "./dist/lib/*.js" } in packages/api/package.json) which both tsc (nodenext) and Node understand.'),
    ],
  },
  {
    id: 'twin-node-subpath-not-exported', tool: 'node', stack: ['javascript', 'node'], errorCategory: 'module-resolution', tags: ['exports', 'monorepo'], project: ['acme', 'acme'],
    a: { 'node_modules/@acme/shared/package.json': JSON.stringify({ name: '@acme/shared', exports: { '.': './index.js' } }), 'node_modules/@acme/shared/index.js': 'exports.x = 1;\n', 'node_modules/@acme/shared/internal/money.js': 'exports.m = 1;\n', 'index.js': `const money = require('@acme/shared/internal/money');\nconsole.log(money);\n` },
    b: { 'node_modules/@acme/shared/package.json': JSON.stringify({ name: '@acme/shared', exports: { '.': './index.js' } }), 'node_modules/@acme/shared/index.js': 'exports.x = 1;\n', 'node_modules/@acme/shared/utils/dates.js': 'exports.d = 1;\n', 'index.js': `const { d } = require('@acme/shared/utils/dates');\nconsole.log(d);\n` },
    twins: [
      web('packages/web/src/components/Price.tsx', 'The web app reached into a private file of @acme/shared; the package only exports its root entry on purpose, and the deep path worked before only because the bundler ignored "exports".', 'Import from the public entry (`import { formatMoney } from "@acme/shared"`); if something is missing there, add it to the shared package\'s index instead of deep-importing.'),
      api('packages/api/src/billing/invoice.ts', 'The API legitimately needs a server-only module of @acme/shared, but packages/shared/package.json "exports" only lists ".", so Node refuses the subpath.', 'Add the subpath to packages/shared/package.json "exports" (e.g. "./internal/*": "./internal/*.js"), rebuild, and keep server-only paths out of the web bundle.'),
    ],
  },
  {
    id: 'twin-py-no-module-app', tool: 'python', stack: ['python'], errorCategory: 'import', tags: ['pythonpath', 'monorepo'], project: ['acme', 'acme'],
    a: { 'tests/test_config.py': 'from app.config import settings\n', 'app/__init__.py': '', 'app/config.py': 'settings = {}\n' },
    b: { 'tools/check.py': 'import app.jobs\n', 'app/__init__.py': '', 'app/jobs.py': 'x = 1\n' },
    cmd: side => side === 'a' ? 'python3 tests/test_config.py' : 'python3 tools/check.py',
    twins: [
      { name: 'api', scope: ['services/api/**'], file: 'services/api/tests/test_users.py', rootCause: 'The API tests import the `app` package but pytest is started from the repository root, so services/api (where app/ lives) is not on sys.path.', fixApproach: 'Add `pythonpath = .` under [tool.pytest.ini_options] in services/api/pyproject.toml and run pytest from services/api (the VS Code test config sets cwd to it).' },
      { name: 'worker', scope: ['services/worker/**'], file: 'services/worker/tools/reindex.py', rootCause: 'The worker scripts are run as files (`python tools/reindex.py`), which puts tools/ on sys.path instead of the service root, so `app` is not importable.', fixApproach: 'Run them as modules from services/worker: `python -m tools.reindex` (update the Procfile/cron entry), or install the worker package in editable mode (`pip install -e services/worker`).' },
    ],
  },
  {
    id: 'twin-eaddrinuse-dev', tool: 'node', main: 'server.js', stack: ['javascript', 'node'], errorCategory: 'network', tags: ['port', 'dev-server'], project: ['acme', 'acme'],
    a: { 'server.js': `const http = require('http');\nhttp.createServer().listen(38611);\nhttp.createServer().listen(38611);\n` },
    b: { 'server.js': `const http = require('http');\nconst s = http.createServer();\ns.listen(38612, () => http.createServer().listen(38612));\n` },
    twins: [
      web('packages/web/vite.config.ts', 'A Vite dev server for the web package is already running in another terminal (or a stale one from a crashed VS Code window) and holds the port.', 'Stop the other `npm run dev` (or `npx kill-port 5173`); set `server.strictPort: false` in vite.config.ts if a different port is acceptable.'),
      api('packages/api/src/index.ts', 'nodemon restarts the API on file change before the previous process has closed its listener, because the server does not handle SIGTERM/SIGUSR2 and keeps the socket open.', 'Close the server on SIGTERM/SIGUSR2 (`process.once("SIGUSR2", () => server.close(() => process.kill(process.pid, "SIGUSR2")))`) and set `"signal": "SIGTERM"` plus a small delay in nodemon.json.'),
    ],
  },
  {
    id: 'twin-rust-unresolved-import', tool: 'rustc', stack: ['rust'], errorCategory: 'resolve', tags: ['modules', 'cargo-features'], project: ['acme', 'acme'],
    a: { 'src/main.rs': 'use crate::config::Settings;\nfn main() {}\n', 'src/config.rs': 'pub struct Settings;\n' },
    b: { 'src/main.rs': 'use crate::telemetry::init;\nfn main() { init(); }\n', 'src/telemetry.rs': 'pub fn init() {}\n' },
    twins: [
      { name: 'cli', scope: ['crates/cli/**'], file: 'crates/cli/src/main.rs', rootCause: 'The module file exists (src/config.rs) but it is never declared: in the cli crate, main.rs has no `mod config;`, so crate::config does not exist.', fixApproach: 'Add `mod config;` (or `pub mod config;`) to crates/cli/src/main.rs next to the other module declarations.' },
      { name: 'core', scope: ['crates/core/**'], file: 'crates/core/src/lib.rs', rootCause: 'In the core crate the module is declared behind a Cargo feature (`#[cfg(feature = "telemetry")] pub mod telemetry;`) and the feature is not enabled in this build.', fixApproach: 'Enable the feature where it is needed (`core = { path = "../core", features = ["telemetry"] }` or `cargo build --features telemetry`), or move the import under the same #[cfg(feature)].' },
    ],
  },
  {
    id: 'twin-ld-curl-undefined', tool: 'ld', fixtureTool: 'ld', stack: ['c'], errorCategory: 'link', tags: ['libcurl', 'linker'], project: ['acme', 'acme'],
    a: { 'main.c': 'void *curl_easy_init(void);\nint main(void) { return curl_easy_init() != 0; }\n' },
    b: { 'fetch.c': 'void *curl_easy_init(void);\nvoid curl_easy_cleanup(void *);\nint main(void) { void *h = curl_easy_init(); curl_easy_cleanup(h); return 0; }\n' },
    cmd: side => side === 'a' ? 'gcc main.c -o app.out' : 'gcc fetch.c -o app.out',
    twins: [
      { name: 'native', scope: ['native/**'], file: 'native/cli/fetch.c', rootCause: 'native/cli builds with a hand-written Makefile that compiles against curl headers but never links libcurl.', fixApproach: 'Add `LDLIBS += $(shell pkg-config --libs libcurl)` to native/cli/Makefile (libraries after the objects) and install libcurl4-openssl-dev in the dev container.' },
      { name: 'firmware', scope: ['firmware/**'], file: 'firmware/sim/main.c', rootCause: 'The firmware simulator is built by CMake and its target never links CURL::libcurl (find_package(CURL) is only done for the host tools).', fixApproach: 'In firmware/sim/CMakeLists.txt add `find_package(CURL REQUIRED)` and `target_link_libraries(sim PRIVATE CURL::libcurl)`.' },
    ],
  },
  {
    id: 'twin-javac-junit-missing', tool: 'javac', stack: ['java'], errorCategory: 'symbol', tags: ['junit', 'classpath', 'build'], project: ['acme', 'acme'],
    a: { 'UserTest.java': 'import org.junit.Test;\npublic class UserTest {\n    @Test public void t() {}\n}\n' },
    b: { 'InvoiceTest.java': 'import org.junit.Assert;\npublic class InvoiceTest {\n    void t() { Assert.assertTrue(true); }\n}\n' },
    cmd: side => side === 'a' ? 'javac -d out UserTest.java' : 'javac -d out InvoiceTest.java',
    twins: [
      { name: 'billing', scope: ['services/billing/**'], file: 'services/billing/src/main/java/com/acme/InvoiceTest.java', rootCause: 'In the Maven billing service JUnit has <scope>test</scope>, and this test class was created under src/main/java, where test dependencies are not on the classpath.', fixApproach: 'Move the class to services/billing/src/test/java (same package); never widen the JUnit scope to compile.' },
      { name: 'legacy', scope: ['services/legacy/**'], file: 'services/legacy/src/com/acme/InvoiceTest.java', rootCause: 'The legacy service is built by Ant with an explicit classpath that does not include the JUnit jar.', fixApproach: 'Add lib/junit-4.13.2.jar (and hamcrest-core) to the <classpath> of the javac task in services/legacy/build.xml.' },
    ],
  },
  {
    id: 'twin-ts-missing-node-types', tool: 'tsc', stack: ['typescript', 'node'], errorCategory: 'config', tags: ['types', '@types/node', 'tsconfig'], project: ['acme', 'acme'],
    compilerOptions: { types: ['node'] },
    a: { 'src/main.ts': 'export const x = 1;\n' },
    b: { 'src/env.ts': 'export const y = 2;\n' },
    twins: [
      web('packages/web/src/main.ts', 'packages/web/tsconfig.json extends the repo base config, which lists "types": ["node"], but the browser package does not (and should not) depend on @types/node.', 'Override "types": ["vite/client"] in packages/web/tsconfig.json so browser code cannot use Node globals by accident.'),
      api('packages/api/src/env.ts', 'The API really uses Node globals (process, Buffer) and its tsconfig asks for Node types, but @types/node was never added to packages/api devDependencies (it was hoisted from another package before).', 'Run `npm i -D @types/node -w packages/api` with the major version matching the runtime Node, and commit the lock file.'),
    ],
  },
];
