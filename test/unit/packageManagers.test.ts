// What an install is (issue 17, class 3): any package manager invoked by name, by path, as a module or
// through a launcher, in any part of a command list. The command lines are the ones the recorded runs
// typed (test/fixtures/tool-output/runs/runs.json) and the usual ways of calling each manager.
import * as assert from 'assert';
import { isFixCommand } from '../../src/core/capture/commandLines';
import { changesEnvironment, isInstallCommand } from '../../src/core/capture/packageManagers';
import { runFixture } from '../fixtures/tool-output';

describe('packageManagers: what an install is', () => {
  it("the recorded runs' installs are installs, their builds, tests and runs are not", () => {
    for (const name of ['venv-pip-install-local', 'ts2-install-typescript', 'ts2-install-types-node', 'ts3-install-types-node']) {
      const { command } = runFixture(name);
      assert.ok(isInstallCommand(command) && isFixCommand(command), command);
    }
    for (const name of ['venv-app-pass', 'ts2-build-pass', 'jest-two-failing', 'go-test-two-fail', 'mypy-incompatible', 'make-gcc-error']) {
      const { command } = runFixture(name);
      assert.ok(!isFixCommand(command), command);
    }
  });

  it('by name, by path, as a module, through a launcher, with env and sudo, in a list', () => {
    const installs = [
      '.venv/bin/pip install pyyaml', 'venv/bin/pip3 install -r requirements.txt', '/usr/bin/pip3.11 install requests', 'python -m pip install requests',
      'python3 -m pip install --user httpx', 'py -m pip install rich', 'uv pip install ruff', 'uv add fastapi', 'uv sync', 'poetry add pendulum', 'pipx install black',
      'conda install numpy', 'mamba env update -f environment.yml', 'npm i -D @types/node', 'npm install --save-dev typescript', 'pnpm add zod', 'yarn add lodash', 'yarn',
      'bun add hono', 'cargo add serde', 'go get github.com/pkg/errors@v0.9.1', 'go mod tidy', 'gem install rails', 'bundle install', 'composer require guzzlehttp/guzzle',
      'sudo apt-get install -y libpq-dev', 'sudo -E apt install libssl-dev', 'brew install jq', 'dotnet add package Newtonsoft.Json', 'CI=1 npm ci', 'cd api && npm install',
      'source .venv/bin/activate && pip install -e .',
    ];
    for (const c of installs) assert.ok(isInstallCommand(c), c);
    const notInstalls = ['npm test', 'npm run build', 'pip --version', 'pip list', 'go build ./...', 'go test ./...', 'cargo build', 'python app.py', 'npx jest', 'yarn test', 'uv run pytest', 'poetry run pytest', 'make'];
    for (const c of notInstalls) assert.ok(!isInstallCommand(c), c);
  });

  it('generators, config and files change the environment too; re-runs and reads do not', () => {
    for (const c of ['npx --yes prisma generate', 'npx prisma migrate dev', 'pnpm dlx drizzle-kit push', 'npm run db:generate', 'npx tsc --init', 'python manage.py migrate', 'git config user.email a@b.c', 'touch src/helpers/__init__.py', 'export NODE_ENV=test', 'python -m venv .venv', 'docker compose up -d']) {
      assert.ok(changesEnvironment(c), c);
    }
    for (const c of ['npx jest', 'npx tsc -p .', 'git status', 'git diff', 'ls -la', 'cat package.json', 'echo $PATH', 'which tsc', 'node index.js', 'python -m pytest']) {
      assert.ok(!changesEnvironment(c), c);
    }
  });
});
