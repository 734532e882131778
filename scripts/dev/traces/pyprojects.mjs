// Python projects beyond the first set: installs through a path (.venv/bin/pip) and as a module
// (python -m pip) from local wheels (PyPI is unreachable, so a package is a small real wheel the
// generator builds, or a local source folder), the same fix in two folders, two failing pytest tests fixed
// by two edits, pytest's context lines, a chained traceback, and a flaky test that passes on a rerun
// after an unrelated README edit.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { story } from './story.mjs';

/** Python that writes pkgs/<dist>-<version>-py3-none-any.whl holding `modules` (path -> source). */
function wheel(dist, version, modules) {
  const info = `${dist}-${version}.dist-info`;
  const files = {
    ...modules,
    [`${info}/METADATA`]: `Metadata-Version: 2.1\nName: ${dist}\nVersion: ${version}\nSummary: local stand-in for the trace corpus\n`,
    [`${info}/WHEEL`]: 'Wheel-Version: 1.0\nGenerator: make-traces\nRoot-Is-Purelib: true\nTag: py3-none-any\n',
  };
  return `import base64, hashlib, json, os, zipfile
os.makedirs('pkgs', exist_ok=True)
files = json.loads(${JSON.stringify(JSON.stringify(files))})
rec = []
for name, text in files.items():
    digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b'=').decode()
    rec.append(f'{name},sha256={digest},{len(text.encode())}')
rec.append('${info}/RECORD,,')
files['${info}/RECORD'] = '\\n'.join(rec) + '\\n'
with zipfile.ZipFile('pkgs/${dist}-${version}-py3-none-any.whl', 'w') as z:
    for name, text in files.items():
        z.writestr(name, text)
`;
}
const makeWheel = (dist, version, modules) => ['unseen', `python3 - <<'PY'\n${wheel(dist, version, modules)}PY`];

const yamlPkg = { 'yaml/__init__.py': "__version__ = '6.0.1'\n\n\ndef safe_load(text):\n    out = {}\n    for line in text.splitlines():\n        if ':' in line:\n            k, v = line.split(':', 1)\n            out[k.strip()] = v.strip()\n    return out\n" };
const tabulatePkg = { 'tabulate/__init__.py': "__version__ = '0.9.0'\n\n\ndef tabulate(rows, headers=()):\n    lines = [' | '.join(map(str, headers))] if headers else []\n    lines += [' | '.join(map(str, r)) for r in rows]\n    return '\\n'.join(lines)\n" };
const PIP_YAML = '.venv/bin/pip install --no-index --find-links ./pkgs pyyaml';
const PIP_TAB = 'python -m pip install --no-index --find-links ./pkgs tabulate';

const reportPy = dir => `def summary(count):\n    return '${dir}: items ' + count\n\n\nprint(summary(3))\n`;

/** A file outside the project that the flaky test reads: what the network or a slow disk would be. */
const FLAKY = join(tmpdir(), 'engram-trace-flaky-delay');

export const episodes = [
  story({
    name: 'py-venv-pip-path-install', family: 'python',
    files: { 'load.py': "import yaml\n\nwith open('app.cfg') as f:\n    print(yaml.safe_load(f.read()))\n", 'app.cfg': 'port: 8080\nhost: localhost\n' },
    opts: { venv: 'inactive' },
    steps: [
      makeWheel('PyYAML', '6.0.1', yamlPkg),
      ['open', 'load.py'],
      ['run', '.venv/bin/python load.py', 'fail'],
      ['run', PIP_YAML, 0],
      ['run', '.venv/bin/python load.py', 0],
    ],
    label: {
      description: "ModuleNotFoundError: No module named 'yaml' from .venv/bin/python load.py, fixed by installing PyYAML with the venv's pip called by its path (.venv/bin/pip install …): an install, not an unexplained clear",
      mustContain: [PIP_YAML], mustNotClaim: ['load.py', 'app.cfg'],
      errors: ["ModuleNotFoundError: No module named 'yaml'"], mustNotSay: ['unexplained'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['install-path'],
    },
    queries: [
      { kind: 'related', file: 'tools/dump.py', files: { 'tools/dump.py': "import yaml\nprint(yaml.safe_load('a: 1'))\n" }, how: '.venv/bin/python tools/dump.py', opts: { venv: 'inactive' } },
      { kind: 'near', file: 'load.py', files: { 'load.py': 'import toml\nprint(toml.loads("a = 1"))\n' }, how: '.venv/bin/python load.py', opts: { venv: 'inactive' } },
    ],
  }),
  story({
    name: 'py-venv-pip-local-package', family: 'python',
    files: { 'app.py': "from textkit import words\n\nprint(len(words('the quick brown fox')))\n" },
    opts: { venv: 'inactive' },
    steps: [
      // The team's own package, built earlier into dist/ (pip cannot build it here: no wheel package offline).
      makeWheel('textkit', '0.2.0', { 'textkit/__init__.py': 'def words(s):\n    return s.split()\n' }),
      ['unseen', 'mkdir -p dist && mv pkgs/textkit-0.2.0-py3-none-any.whl dist/ && rmdir pkgs'],
      ['open', 'app.py'],
      ['run', '.venv/bin/python app.py', 'fail'],
      ['run', '.venv/bin/pip install ./dist/textkit-0.2.0-py3-none-any.whl', 0],
      ['run', '.venv/bin/python app.py', 0],
    ],
    label: {
      description: "ModuleNotFoundError: No module named 'textkit' (the team's own package, a wheel in dist/), fixed by installing that wheel by its path with the venv's pip called by its path",
      mustContain: ['.venv/bin/pip install ./dist/textkit-0.2.0-py3-none-any.whl'], mustNotClaim: ['app.py'],
      errors: ["ModuleNotFoundError: No module named 'textkit'"], mustNotSay: ['unexplained'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['install-path'],
    },
    queries: [
      { kind: 'related', file: 'scripts/count.py', files: { 'scripts/count.py': 'import textkit\nprint(textkit)\n' }, how: '.venv/bin/python scripts/count.py', opts: { venv: 'inactive' } },
      { kind: 'near', file: 'app.py', files: { 'app.py': 'import textwrap2\n' }, how: '.venv/bin/python app.py', opts: { venv: 'inactive' } },
    ],
  }),
  story({
    name: 'py-module-pip-install', family: 'python',
    files: { 'table.py': "from tabulate import tabulate\n\nprint(tabulate([['ada', 36], ['alan', 41]], headers=['name', 'age']))\n" },
    opts: { venv: true },
    steps: [
      makeWheel('tabulate', '0.9.0', tabulatePkg),
      ['open', 'table.py'],
      ['run', 'python table.py', 'fail'],
      ['run', PIP_TAB, 0],
      ['run', 'python table.py', 0],
    ],
    label: {
      description: "ModuleNotFoundError: No module named 'tabulate', fixed by installing it with pip run as a module (python -m pip install …)",
      mustContain: [PIP_TAB], mustNotClaim: ['table.py'],
      errors: ["ModuleNotFoundError: No module named 'tabulate'"], mustNotSay: ['unexplained'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['install-module'],
    },
    queries: [
      { kind: 'related', file: 'report/print_table.py', files: { 'report/print_table.py': 'import tabulate\n' }, how: 'python report/print_table.py', opts: { venv: true } },
      { kind: 'near', file: 'table.py', files: { 'table.py': 'import prettytable\n' }, how: 'python table.py', opts: { venv: true } },
    ],
  }),
  ...['billing', 'shipping'].map(dir => story({
    name: `py-str-concat-${dir}`, family: 'python',
    files: { [`services/${dir}/report.py`]: reportPy(dir), 'README.md': '# services\n' },
    steps: [
      ['open', `services/${dir}/report.py`],
      ['run', `python3 services/${dir}/report.py`, 'fail'],
      ['replace', `services/${dir}/report.py`, "items ' + count", "items ' + str(count)"],
      ['run', `python3 services/${dir}/report.py`, 0],
    ],
    label: {
      description: `TypeError: can only concatenate str (not "int") to str in services/${dir}/report.py, fixed by str(count) — the same change in the other service folder, so both traces must end as one lesson`,
      mustContain: ['str(count)'], mustNotClaim: ['README.md'],
      errors: ['TypeError: can only concatenate str (not "int") to str'],
      lessons: 1, resolved: 'fixed', story: 'terminal', mergeGroup: 'py-str-count', classes: ['same-fix-two-folders'],
    },
    queries: dir === 'billing' ? [
      { kind: 'related', file: 'services/orders/report.py', files: { 'services/orders/report.py': reportPy('orders') }, how: 'python3 services/orders/report.py' },
      { kind: 'near', file: 'services/billing/report.py', files: { 'services/billing/report.py': "def summary(count):\n    return 3 + 'items'\n\n\nprint(summary(3))\n" }, how: 'python3 services/billing/report.py' },
    ] : [],
  })),
  story({
    name: 'pytest-two-tests-two-fixes', family: 'pytest',
    files: {
      'text.py': "def slug(s):\n    return s.replace(' ', '-')\n\n\ndef title(s):\n    return s\n",
      'test_text.py': "from text import slug, title\n\n\ndef test_slug_lowercases():\n    assert slug('Hello World') == 'hello-world'\n\n\ndef test_title_capitalises():\n    assert title('ada lovelace') == 'Ada Lovelace'\n",
    },
    steps: [
      ['open', 'test_text.py'],
      ['run', 'python3 -m pytest -q', 'fail'],
      ['open', 'text.py'],
      ['replace', 'text.py', "return s.replace(' ', '-')", "return s.lower().replace(' ', '-')"],
      ['run', 'python3 -m pytest -q', 'fail'],
      ['replace', 'text.py', '    return s\n', '    return s.title()\n'],
      ['run', 'python3 -m pytest -q', 0],
    ],
    label: {
      description: 'pytest: test_slug_lowercases and test_title_capitalises fail in one file; one edit (lower()) fixes the first, a second (title()) the other: two lessons, never one',
      mustContain: ['test_slug_lowercases', 'test_title_capitalises', 's.lower()', 's.title()'], mustNotClaim: ['test_text.py'],
      errors: ['test_slug_lowercases', 'test_title_capitalises'],
      lessons: 2, resolved: 'fixed', story: 'terminal', classes: ['two-tests'],
    },
    queries: [
      { kind: 'related', file: 'test_text.py', files: { 'text.py': "def slug(s):\n    return s.replace(' ', '-')\n", 'test_text.py': "from text import slug\n\n\ndef test_slug_lowercases():\n    assert slug('Good Day') == 'good-day'\n" }, how: 'python3 -m pytest -q' },
      { kind: 'near', file: 'test_text.py', files: { 'text.py': "def slug(s):\n    return s.lower().replace(' ', '-')\n", 'test_text.py': "from text import slug\n\n\ndef test_slug_strips():\n    assert slug(' a ') == 'a'\n" }, how: 'python3 -m pytest -q' },
    ],
  }),
  story({
    name: 'pytest-fixture-not-found', family: 'pytest',
    files: {
      'store.py': "import json\n\n\ndef save(path, data):\n    path.write_text(json.dumps(data))\n",
      'test_store.py': "from store import save\n\n\ndef test_save_writes_json(tmpdir_path):\n    out = tmpdir_path / 'data.json'\n    save(out, {'a': 1})\n    assert out.read_text() == '{\"a\": 1}'\n",
    },
    steps: [
      ['open', 'test_store.py'],
      ['run', 'python3 -m pytest -q', 'fail'],
      ['edit', 'test_store.py', "from store import save\n\n\ndef test_save_writes_json(tmp_path):\n    out = tmp_path / 'data.json'\n    save(out, {'a': 1})\n    assert out.read_text() == '{\"a\": 1}'\n"],
      ['run', 'python3 -m pytest -q', 0],
    ],
    label: {
      description: "pytest: fixture 'tmpdir_path' not found, followed by the list of available fixtures and a help line; the built-in fixture is tmp_path, fixed in the test",
      mustContain: ['tmp_path'], mustNotClaim: ['store.py'],
      errors: ["fixture 'tmpdir_path' not found"], mustNotSay: ['available fixtures'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['note-line'],
    },
    queries: [
      { kind: 'related', file: 'tests/test_cache.py', files: { 'tests/test_cache.py': "def test_cache_dir(tmpdir_path):\n    assert tmpdir_path.exists()\n" }, how: 'python3 -m pytest -q' },
      { kind: 'near', file: 'test_store.py', files: { 'test_store.py': "def test_db(db_session):\n    assert db_session\n" }, how: 'python3 -m pytest -q' },
    ],
  }),
  story({
    name: 'py-chained-keyerror-config', family: 'python',
    files: {
      'settings.json': '{\n  "host": "localhost"\n}\n',
      'serve.py': "import json\n\n\nclass ConfigError(Exception):\n    pass\n\n\ndef load():\n    cfg = json.load(open('settings.json'))\n    try:\n        return cfg['host'], int(cfg['port'])\n    except KeyError as e:\n        raise ConfigError(f'missing setting {e}')\n\n\nprint(load())\n",
    },
    steps: [
      ['open', 'serve.py'],
      ['run', 'python3 serve.py', 'fail'],
      ['open', 'settings.json'],
      ['edit', 'settings.json', '{\n  "host": "localhost",\n  "port": 8080\n}\n'],
      ['run', 'python3 serve.py', 0],
    ],
    label: {
      description: "python: KeyError: 'port', then \"During handling of the above exception, another exception occurred\" and the final ConfigError: missing setting 'port'; fixed by adding port to settings.json, serve.py untouched",
      mustContain: ['settings.json', '"port": 8080'], mustNotClaim: ['serve.py'],
      errors: ["ConfigError: missing setting 'port'"],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['note-line'],
    },
    queries: [
      { kind: 'related', file: 'worker.py', files: { 'settings.json': '{}\n', 'worker.py': "import json\n\n\nclass ConfigError(Exception):\n    pass\n\n\ncfg = json.load(open('settings.json'))\ntry:\n    port = cfg['port']\nexcept KeyError as e:\n    raise ConfigError(f'missing setting {e}')\n" }, how: 'python3 worker.py' },
      { kind: 'near', file: 'serve.py', files: { 'settings.json': '{"port": 1}\n', 'serve.py': "import json\n\n\nclass ConfigError(Exception):\n    pass\n\n\ncfg = json.load(open('settings.json'))\ntry:\n    host = cfg['host']\nexcept KeyError as e:\n    raise ConfigError(f'missing setting {e}')\n" }, how: 'python3 serve.py' },
    ],
  }),
  story({
    name: 'py-indentation-error', family: 'python',
    files: { 'greet.py': "def greet(name):\n    message = f'Hello, {name}'\n        return message\n\n\nprint(greet('ada'))\n" },
    steps: [
      ['open', 'greet.py'],
      ['run', 'python3 greet.py', 'fail'],
      ['replace', 'greet.py', '        return message', '    return message'],
      ['run', 'python3 greet.py', 0],
    ],
    label: {
      description: 'python: IndentationError: unexpected indent on the return line of greet.py, fixed by dedenting it',
      mustContain: ['return message'], mustNotClaim: [],
      errors: ['IndentationError: unexpected indent'],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'calc.py', files: { 'calc.py': 'def add(a, b):\n    s = a + b\n      return s\n' }, how: 'python3 calc.py' },
      { kind: 'near', file: 'greet.py', files: { 'greet.py': "def greet(name):\nreturn name\n" }, how: 'python3 greet.py' },
    ],
  }),
  story({
    name: 'pytest-flaky-timing-docs-edit', family: 'pytest',
    files: {
      'fetch.py': `import time\n\n\ndef fetch_status():\n    # The service's latency (a file outside the project stands in for the network).\n    with open(${JSON.stringify(FLAKY)}) as f:\n        time.sleep(float(f.read()))\n    return 'ok'\n`,
      'test_fetch.py': "import time\n\nfrom fetch import fetch_status\n\n\ndef test_status_is_fast():\n    started = time.monotonic()\n    assert fetch_status() == 'ok'\n    assert time.monotonic() - started < 1.0\n",
      'README.md': '# fetch\n\nRun the tests with pytest.\n',
    },
    steps: [
      () => writeFileSync(FLAKY, '1.5'),
      ['open', 'test_fetch.py'],
      ['run', 'python3 -m pytest -q', 'fail'],
      ['open', 'README.md'],
      ['replace', 'README.md', 'Run the tests with pytest.', 'Run the tests with `python3 -m pytest -q`.'],
      () => writeFileSync(FLAKY, '0.01'),
      ['run', 'python3 -m pytest -q', 0],
    ],
    label: {
      description: 'pytest: test_status_is_fast fails on a slow run (the service was slow, outside what capture sees); the user edits README.md and the rerun passes. The README edit did not fix it: unexplained, no lesson with a fix',
      mustNotClaim: ['fetch.py', 'test_fetch.py'], decoys: ['README.md'],
      resolved: 'unexplained', story: 'terminal', classes: ['flaky', 'unexplained'],
    },
    queries: [
      { kind: 'near', file: 'test_fetch.py', files: { 'fetch.py': 'def fetch_status():\n    return "down"\n', 'test_fetch.py': "from fetch import fetch_status\n\n\ndef test_status_is_fast():\n    assert fetch_status() == 'ok'\n" }, how: 'python3 -m pytest -q' },
    ],
  }),
];
