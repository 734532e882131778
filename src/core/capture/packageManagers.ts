// What changes the environment: an install through any package manager, however it is invoked (by name,
// by path, as a module, through a launcher: `.venv/bin/pip install pyyaml`, `python -m pip install x`,
// `npx --yes prisma generate`), a generator, a config or file-system command. One table of programs and
// the verbs that change something, read on extract/program.ts's invocation of each part of the line, so
// a new manager is one row, not a new regular expression per way of calling it.
import { invocations, type Invocation } from '../extract/program';

type Verbs = (args: readonly string[]) => boolean;

/** The first argument that is not a flag, and the ones after it. */
function positional(args: readonly string[]): string[] {
  return args.filter(a => !a.startsWith('-'));
}

function verb(...names: string[]): Verbs {
  const set = new Set(names);
  return args => set.has(positional(args)[0] ?? '');
}

/** `npm run db:generate`, `yarn codegen`: a script named for what it produces. */
const GENERATOR_SCRIPT = /generate|codegen|migrate|prepare|setup|bootstrap/;
const JS_INSTALL = new Set(['i', 'install', 'add', 'ci', 'remove', 'rm', 'uninstall', 'un', 'update', 'up', 'upgrade', 'link', 'rebuild', 'dedupe']);

function jsManager(bareInstalls: boolean): Verbs {
  return args => {
    const [first, second, third] = positional(args);
    if (first === undefined) return bareInstalls; // `yarn`, `bun` alone install
    if (JS_INSTALL.has(first)) return true;
    if ((first === 'config' || first === 'pkg') && second === 'set') return true;
    const script = first === 'run' || first === 'run-script' ? second : first;
    return !!script && GENERATOR_SCRIPT.test(script) && third !== '--help';
  };
}

/** Package managers and the verbs of theirs that install, remove or pin something. */
export const INSTALL_VERBS: Record<string, Verbs> = {
  npm: jsManager(false), pnpm: jsManager(false), yarn: jsManager(true), bun: jsManager(false),
  pip: verb('install', 'uninstall'), pipx: verb('install', 'inject', 'upgrade', 'reinstall'),
  uv: args => { const [a, b] = positional(args); return ['add', 'remove', 'sync', 'lock', 'venv'].includes(a) || ((a === 'pip' || a === 'tool' || a === 'python') && ['install', 'uninstall', 'sync'].includes(b)); },
  poetry: verb('add', 'install', 'remove', 'sync', 'lock', 'update'), pdm: verb('add', 'install', 'remove', 'sync', 'lock', 'update'),
  pipenv: verb('install', 'uninstall', 'sync', 'lock', 'update'), hatch: verb('env'),
  conda: args => { const [a, b] = positional(args); return ['install', 'create', 'update', 'upgrade', 'remove', 'activate'].includes(a) || (a === 'env' && ['create', 'update'].includes(b)); },
  cargo: verb('add', 'remove', 'update', 'install', 'fetch', 'generate-lockfile', 'vendor'),
  go: args => { const [a, b] = positional(args); return a === 'get' || a === 'install' || (a === 'mod' && ['tidy', 'download', 'vendor', 'init', 'edit'].includes(b)) || (a === 'work' && ['sync', 'use', 'init'].includes(b)); },
  gem: verb('install', 'update', 'uninstall'), bundle: verb('install', 'add', 'update', 'lock'),
  composer: verb('require', 'install', 'update', 'dump-autoload', 'remove'),
  dotnet: args => { const [a, b] = positional(args); return a === 'restore' || (a === 'add' && b === 'package') || (a === 'tool' && b === 'install'); },
  nuget: verb('install', 'restore'), deno: verb('add', 'install', 'cache'),
  mvn: args => args.some(a => /^(?:install|dependency:resolve|-U|--update-snapshots)$/.test(a)),
  gradle: args => args.some(a => a === '--refresh-dependencies'),
  swift: args => { const [a, b] = positional(args); return a === 'package' && ['resolve', 'update'].includes(b); },
  rustup: args => { const [a, b] = positional(args); return (['target', 'component'].includes(a) && b === 'add') || (a === 'toolchain' && b === 'install') || a === 'default' || a === 'override'; },
  apt: verb('install', 'reinstall'), dnf: verb('install', 'reinstall'), yum: verb('install', 'reinstall'), zypper: verb('install', 'in'),
  apk: verb('add'), brew: verb('install', 'reinstall', 'link'), port: verb('install'), pacman: args => args.some(a => /^-S/.test(a)),
  choco: verb('install'), winget: verb('install'), scoop: verb('install'), snap: verb('install'), 'nix-env': args => args.includes('-i') || args.includes('--install'),
  nvm: verb('install', 'use', 'alias'), fnm: verb('install', 'use', 'default'), volta: verb('install', 'pin'), asdf: verb('install', 'local', 'global', 'set'),
  pyenv: verb('install', 'local', 'global'), rbenv: verb('install', 'local', 'global'), corepack: verb('enable', 'prepare', 'use', 'install'),
};
INSTALL_VERBS['apt-get'] = INSTALL_VERBS.apt;
INSTALL_VERBS.bundler = INSTALL_VERBS.bundle;
INSTALL_VERBS.mamba = INSTALL_VERBS.conda;
INSTALL_VERBS.micromamba = INSTALL_VERBS.conda;
INSTALL_VERBS.gradlew = INSTALL_VERBS.gradle;

/** Commands that change the environment without installing: generators, config, files, services, venvs. */
const OTHER_CHANGES: Record<string, Verbs> = {
  git: args => { const [a, b] = positional(args); return a === 'config' || a === 'restore' || a === 'stash' || (a === 'submodule' && ['update', 'init'].includes(b)) || (a === 'lfs' && b === 'pull') || (a === 'checkout' && args.includes('--')); },
  touch: () => true, mkdir: () => true, cp: () => true, mv: () => true, ln: () => true, chmod: () => true, chown: () => true, rm: () => true, unzip: () => true,
  tar: args => /^-?[a-z]*x/.test(args[0] ?? ''),
  export: args => args.some(a => /^\w+=/.test(a)), set: args => args.some(a => /^\w+=/.test(a)), setx: () => true,
  source: args => /activate$/.test(args[0] ?? ''), '.': args => /activate$/.test(args[0] ?? ''),
  venv: () => true, virtualenv: () => true,
  prisma: () => true, 'drizzle-kit': () => true, sequelize: () => true, knex: () => true, alembic: () => true, flyway: () => true, typeorm: () => true,
  protoc: () => true, buf: () => true, 'openapi-generator': () => true, 'openapi-generator-cli': () => true, 'graphql-codegen': () => true,
  docker: args => { const p = positional(args); const a = p[0] === 'compose' ? p[1] : p[0]; return ['up', 'start', 'pull', 'build'].includes(a ?? ''); },
  'docker-compose': verb('up', 'start', 'pull', 'build'), podman: args => ['up', 'start', 'pull', 'build'].includes(positional(args)[0] ?? ''),
  createdb: () => true, dropdb: () => true, psql: args => args.includes('-c'),
};
OTHER_CHANGES['manage.py'] = verb('migrate', 'makemigrations', 'collectstatic');

function installs(x: Invocation): boolean {
  return INSTALL_VERBS[x.program]?.(x.args) ?? false;
}

/** Verbs that make something, whatever the program (`npx shadcn add x`, `tsc --init` has none: its flag is below). */
const MAKING_VERB = /^(?:generate|gen|codegen|migrate|install|add|init|push|setup|bootstrap)$/;

function makes(x: Invocation): boolean {
  return MAKING_VERB.test(positional(x.args)[0] ?? '') || x.args.includes('--init');
}

/** `python manage.py migrate`: the script is the program. */
function scriptOf(x: Invocation): Invocation {
  return x.program === 'python' && x.args[0] && /\.py$/.test(x.args[0]) ? { program: x.args[0].replace(/^.*\//, ''), args: x.args.slice(1) } : x;
}

/** A package manager installs, removes or pins something in some part of this line. */
export function isInstallCommand(line: string): boolean {
  return invocations(line).some(installs);
}

/** Some part of the line changes the environment in a way that can fix an error (install, generate, config). */
export function changesEnvironment(line: string): boolean {
  return invocations(line).some(x => {
    const y = scriptOf(x);
    return installs(x) || makes(y) || (OTHER_CHANGES[y.program]?.(y.args) ?? false);
  });
}
