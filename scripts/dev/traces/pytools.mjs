// Python checkers: mypy (Debian's python3-mypy) with its note lines and "Found N errors" summary, pyright
// (npm) in the editor and the terminal, flake8 and pylint (Debian) with their codes and score lines.
// Editor stories take the extensions' diagnostics from the checkers' own runs (session.mjs).
import { join } from 'node:path';
import { story } from './story.mjs';
import { deps } from './deps.mjs';

const pyrightBin = () => join(deps('pyright'), 'node_modules', '.bin', 'pyright');
const pyrightCfg = JSON.stringify({ include: ['.'], exclude: ['node_modules', '.venv'], typeCheckingMode: 'standard' }, null, 2) + '\n';

const statsPy = 'def mean(xs: list[float]) -> float:\n    return sum(xs) / len(xs)\n\n\nscores: list[int] = [3, 4, 5]\nprint(mean(scores))\n';
const configPy = "import os\n\n\ndef port() -> int:\n    raw = os.environ.get('PORT', '8080')\n    return raw\n";
const userPy = 'from typing import Optional\n\n\ndef initials(name: Optional[str]) -> str:\n    return name.upper()[:2]\n';
const settingsPy = "class Config:\n    def __init__(self) -> None:\n        self.host = 'localhost'\n        self.port = 8080\n\n\ndef url() -> str:\n    cfg = Config()\n    return f'http://{cfg.host}:{cfg.prot}'\n\n\nprint(url())\n";

export const episodes = [
  story({
    name: 'mypy-return-value-summary', family: 'mypy',
    files: { 'config.py': configPy },
    steps: [
      ['open', 'config.py'],
      ['run', 'mypy config.py', 'fail'],
      ['replace', 'config.py', '    return raw\n', '    return int(raw)\n'],
      ['run', 'mypy config.py', 0],
    ],
    label: {
      description: 'mypy: Incompatible return value type (got "str", expected "int") [return-value], then its summary line "Found 1 error in 1 file"; fixed by returning int(raw). The summary is not the error, and the code return-value belongs to mypy',
      mustContain: ['int(raw)', 'return-value'], mustNotClaim: [],
      errors: ['Incompatible return value type (got "str", expected "int")'], mustNotSay: ['Found 1 error'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line'],
    },
    queries: [
      { kind: 'related', file: 'limits.py', files: { 'limits.py': "def max_items() -> int:\n    value = '20'\n    return value\n" }, how: 'mypy limits.py' },
      { kind: 'near', file: 'config.py', files: { 'config.py': 'def ratio() -> int:\n    return 0.5\n' }, how: 'mypy config.py' },
    ],
  }),
  story({
    name: 'mypy-invariant-list-notes', family: 'mypy',
    files: { 'stats.py': statsPy },
    steps: [
      ['open', 'stats.py'],
      ['run', 'mypy stats.py', 'fail'],
      ['replace', 'stats.py', 'def mean(xs: list[float]) -> float:', 'from collections.abc import Sequence\n\n\ndef mean(xs: Sequence[float]) -> float:'],
      ['run', 'mypy stats.py', 0],
    ],
    label: {
      description: 'mypy: Argument 1 to "mean" has incompatible type "list[int]"; expected "list[float]", followed by two note lines ("List" is invariant …, Consider using "Sequence" …) and the summary; fixed by taking a Sequence[float]. The error is the argument line, not a note',
      mustContain: ['Sequence[float]', 'incompatible type'], mustNotClaim: [],
      errors: ['Argument 1 to "mean" has incompatible type "List[int]"; expected "List[float]"'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['note-line', 'summary-line'],
    },
    queries: [
      { kind: 'related', file: 'report.py', files: { 'report.py': 'def total(xs: list[float]) -> float:\n    return sum(xs)\n\n\ncounts: list[int] = [1, 2]\nprint(total(counts))\n' }, how: 'mypy report.py' },
      { kind: 'near', file: 'stats.py', files: { 'stats.py': 'def mean(xs: list[float]) -> float:\n    return sum(xs) / len(xs)\n\n\nprint(mean("345"))\n' }, how: 'mypy stats.py' },
    ],
  }),
  story({
    name: 'mypy-union-attr-editor', family: 'mypy',
    files: { 'users.py': userPy },
    steps: [
      ['open', 'users.py'],
      ['server', 'mypy'],
      ['replace', 'users.py', '    return name.upper()[:2]\n', "    if name is None:\n        return ''\n    return name.upper()[:2]\n"],
    ],
    label: {
      description: 'the Mypy extension reports Item "None" of "Optional[str]" has no attribute "upper" [union-attr] in users.py; fixed in the editor by returning early when name is None',
      mustContain: ['if name is None'], mustNotClaim: [],
      errors: ['Item "None" of "Optional[str]" has no attribute "upper"'],
      lessons: 1, resolved: 'fixed', story: 'editor',
    },
    queries: [
      { kind: 'related', file: 'labels.py', files: { 'labels.py': 'from typing import Optional\n\n\ndef tag(label: Optional[str]) -> str:\n    return label.upper()\n' }, how: 'mypy labels.py' },
      { kind: 'near', file: 'users.py', files: { 'users.py': 'from typing import Optional\n\n\ndef initials(name: Optional[str]) -> str:\n    return name.title()[:2]\n' }, how: 'mypy users.py' },
    ],
  }),
  story({
    name: 'pyright-optional-member-editor', family: 'pyright',
    files: { 'pyrightconfig.json': pyrightCfg, 'users.py': userPy },
    steps: [
      ['open', 'users.py'],
      s => s.usePyright(pyrightBin()),
      ['replace', 'users.py', '    return name.upper()[:2]\n', "    return (name or '').upper()[:2]\n"],
    ],
    label: {
      description: 'the Pyright extension reports "upper" is not a known attribute of "None" (reportOptionalMemberAccess) in users.py; fixed in the editor with (name or \'\')',
      mustContain: ["(name or '')"], mustNotClaim: ['pyrightconfig.json'],
      errors: ['"upper" is not a known attribute of "None"'],
      lessons: 1, resolved: 'fixed', story: 'editor',
    },
    queries: [
      { kind: 'related', file: 'tags.py', files: { 'pyrightconfig.json': pyrightCfg, 'tags.py': 'from typing import Optional\n\n\ndef tag(label: Optional[str]) -> str:\n    return label.upper()\n' }, how: 'npx pyright', opts: { deps: deps('pyright') } },
      { kind: 'near', file: 'users.py', files: { 'pyrightconfig.json': pyrightCfg, 'users.py': 'from typing import Optional\n\n\ndef initials(name: Optional[str]) -> str:\n    return name.strip()[:2]\n' }, how: 'npx pyright', opts: { deps: deps('pyright') } },
    ],
  }),
  story({
    name: 'pyright-import-unresolved-editor', family: 'pyright',
    files: {
      'pyrightconfig.json': pyrightCfg,
      'util/__init__.py': '',
      'util/textutil.py': "def slug(s: str) -> str:\n    return '-'.join(s.lower().split())\n",
      'app.py': "from utils.textutil import slug\n\nprint(slug('Hello World'))\n",
    },
    steps: [
      ['open', 'app.py'],
      s => s.usePyright(pyrightBin()),
      ['replace', 'app.py', 'from utils.textutil import slug', 'from util.textutil import slug'],
    ],
    label: {
      description: 'the Pyright extension reports Import "utils.textutil" could not be resolved (reportMissingImports) in app.py: the package is util/, fixed by importing util.textutil',
      mustContain: ['from util.textutil import slug'], mustNotClaim: ['util/textutil.py', 'util/__init__.py', 'pyrightconfig.json'],
      errors: ['Import "utils.textutil" could not be resolved'],
      lessons: 1, resolved: 'fixed', story: 'editor',
    },
    queries: [
      { kind: 'related', file: 'worker.py', files: { 'pyrightconfig.json': pyrightCfg, 'util/__init__.py': '', 'util/textutil.py': 'def slug(s: str) -> str:\n    return s\n', 'worker.py': 'from utils.textutil import slug\n\nprint(slug("x"))\n' }, how: 'npx pyright', opts: { deps: deps('pyright') } },
      { kind: 'near', file: 'app.py', files: { 'pyrightconfig.json': pyrightCfg, 'app.py': 'import redis\n\nprint(redis.Redis())\n' }, how: 'npx pyright', opts: { deps: deps('pyright') } },
    ],
  }),
  story({
    name: 'pyright-argument-type-terminal', family: 'pyright',
    files: { 'pyrightconfig.json': pyrightCfg, 'calc.py': "def double(n: int) -> int:\n    return n * 2\n\n\nprint(double('3'))\n" },
    opts: () => ({ deps: deps('pyright') }),
    steps: [
      ['open', 'calc.py'],
      ['run', 'npx pyright', 'fail'],
      ['replace', 'calc.py', "print(double('3'))", 'print(double(3))'],
      ['run', 'npx pyright', 0],
    ],
    label: {
      description: 'npx pyright: Argument of type "Literal[\'3\']" cannot be assigned to parameter "n" of type "int", an indented detail line, the rule name, and the summary "1 error, 0 warnings, 0 informations"; fixed by passing the number',
      mustContain: ['double(3)'], mustNotClaim: ['pyrightconfig.json'],
      errors: ['Argument of type "Literal[\'3\']" cannot be assigned to parameter "n" of type "int"'], mustNotSay: ['0 informations'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line', 'note-line'],
    },
    queries: [
      { kind: 'related', file: 'pay.py', files: { 'pyrightconfig.json': pyrightCfg, 'pay.py': "def cents(n: int) -> int:\n    return n * 100\n\n\nprint(cents('12'))\n" }, how: 'npx pyright', opts: { deps: deps('pyright') } },
      { kind: 'near', file: 'calc.py', files: { 'pyrightconfig.json': pyrightCfg, 'calc.py': "def greet(n: str) -> str:\n    return n\n\n\nprint(greet(3))\n" }, how: 'npx pyright', opts: { deps: deps('pyright') } },
    ],
  }),
  story({
    name: 'flake8-f401-unused-import', family: 'flake8',
    files: { 'tasks.py': "import os\nimport sys\n\n\ndef main():\n    print(sys.argv[1:])\n\n\nmain()\n" },
    steps: [
      ['open', 'tasks.py'],
      ['run', 'flake8 tasks.py', 'fail'],
      ['replace', 'tasks.py', 'import os\n', ''],
      ['run', 'flake8 tasks.py', 0],
    ],
    label: {
      description: "flake8: tasks.py:1:1: F401 'os' imported but unused; fixed by deleting the import",
      mustContain: ['F401', 'import os'], mustNotClaim: [],
      errors: ["F401 'os' imported but unused"],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'jobs/run.py', files: { 'jobs/run.py': 'import os\n\nprint("run")\n' }, how: 'flake8 jobs/run.py' },
      { kind: 'near', file: 'tasks.py', files: { 'tasks.py': 'import sys\n\nprint(os.getcwd(), sys.argv)\n' }, how: 'flake8 tasks.py' },
    ],
  }),
  story({
    name: 'flake8-f821-undefined-name', family: 'flake8',
    files: { 'paths.py': "def config_dir():\n    return Path.home() / '.config' / 'app'\n\n\nprint(config_dir())\n" },
    steps: [
      ['open', 'paths.py'],
      ['run', 'flake8 paths.py && python3 paths.py', 'fail'],
      ['replace', 'paths.py', 'def config_dir():', 'from pathlib import Path\n\n\ndef config_dir():'],
      ['run', 'flake8 paths.py && python3 paths.py', 0],
    ],
    label: {
      description: "flake8: F821 undefined name 'Path' in paths.py (the && list stops there, python never runs); fixed by importing Path from pathlib",
      mustContain: ['from pathlib import Path'], mustNotClaim: [],
      errors: ["F821 undefined name 'Path'"],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'cache.py', files: { 'cache.py': "CACHE = Path('/tmp') / 'cache'\n" }, how: 'flake8 cache.py' },
      { kind: 'near', file: 'paths.py', files: { 'paths.py': "print(PurePath('a'))\n" }, how: 'flake8 paths.py' },
    ],
  }),
  story({
    name: 'pylint-no-member-score', family: 'pylint',
    files: { 'settings.py': settingsPy },
    steps: [
      ['open', 'settings.py'],
      ['run', 'pylint --disable=C,R settings.py', 'fail'],
      ['replace', 'settings.py', '{cfg.prot}', '{cfg.port}'],
      ['run', 'pylint --disable=C,R settings.py', 0],
    ],
    label: {
      description: "pylint: E1101 Instance of 'Config' has no 'prot' member (no-member), then the score line \"Your code has been rated at …/10\"; fixed by the typo. The score is a summary, not the error",
      mustContain: ['cfg.port', 'no-member'], mustNotClaim: [],
      errors: ["Instance of 'Config' has no 'prot' member"], mustNotSay: ['Your code has been rated'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line'],
    },
    queries: [
      { kind: 'related', file: 'client.py', files: { 'client.py': "class Client:\n    def __init__(self) -> None:\n        self.port = 80\n\n\nprint(Client().prot)\n" }, how: 'pylint --disable=C,R client.py' },
      { kind: 'near', file: 'settings.py', files: { 'settings.py': "class Config:\n    def __init__(self) -> None:\n        self.host = 'localhost'\n\n\nprint(Config().hots)\n" }, how: 'pylint --disable=C,R settings.py' },
    ],
  }),
];
