// Python sessions: errors come from the terminal (no pyright here). PyPI is not reachable, so `requests`
// is a tiny local wheel in ./pkgs installed with --no-index into the project's own venv.
import { Session } from './session.mjs';
import { label } from './label.mjs';

const PIP = 'pip install --no-index --find-links ./pkgs requests';

// Writes pkgs/requests-2.32.3-py3-none-any.whl: a real wheel pip installs, with a `get` that needs no network.
const WHEEL = `
import base64, hashlib, zipfile, os
os.makedirs('pkgs', exist_ok=True)
files = {
  'requests/__init__.py': "__version__ = '2.32.3'\\n\\nclass Response:\\n    def __init__(self, url):\\n        self.url = url\\n        self.status_code = 200\\n\\n    def json(self):\\n        return {'url': self.url, 'ok': True}\\n\\ndef get(url, timeout=None):\\n    return Response(url)\\n",
  'requests-2.32.3.dist-info/METADATA': 'Metadata-Version: 2.1\\nName: requests\\nVersion: 2.32.3\\nSummary: local stand-in for the trace corpus\\n',
  'requests-2.32.3.dist-info/WHEEL': 'Wheel-Version: 1.0\\nGenerator: make-traces\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n',
}
rec = []
for name, text in files.items():
    digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b'=').decode()
    rec.append(f'{name},sha256={digest},{len(text.encode())}')
rec.append('requests-2.32.3.dist-info/RECORD,,')
files['requests-2.32.3.dist-info/RECORD'] = '\\n'.join(rec) + '\\n'
with zipfile.ZipFile('pkgs/requests-2.32.3-py3-none-any.whl', 'w') as z:
    for name, text in files.items():
        z.writestr(name, text)
`;

function pipEpisode(name, file, body, description) {
  return {
    name, family: 'python',
    run(out) {
      const s = new Session(this.name, { [file]: body, 'make_wheel.py': WHEEL }, { venv: true });
      s.unseen('python make_wheel.py && rm make_wheel.py');
      s.snap = s.snapshot();
      s.open(file);
      s.command(`python ${file}`, { expect: 'fail' });
      s.command(PIP, { expect: 0 });
      s.command(`python ${file}`, { expect: 0 });
      s.finish(out, label({
        family: 'python', description,
        mustContain: [PIP], mustNotClaim: [file], mergeGroup: 'pip-requests', lessons: 1, resolved: 'fixed', story: 'terminal',
      }));
    },
  };
}

export const episodes = [
  pipEpisode('py-pip-requests-app', 'app.py',
    "import requests\n\n\ndef main():\n    r = requests.get('https://api.example.com/health', timeout=5)\n    print(r.status_code, r.json())\n\n\nif __name__ == '__main__':\n    main()\n",
    "Python ModuleNotFoundError: No module named 'requests' in app.py (the active editor), fixed by pip install in the terminal; app.py never changed"),
  pipEpisode('py-pip-requests-fetch', 'scripts/fetch.py',
    "import json\nimport requests\n\nresp = requests.get('https://api.example.com/items', timeout=10)\nprint(json.dumps(resp.json(), indent=2))\n",
    "Python ModuleNotFoundError: No module named 'requests' in scripts/fetch.py, fixed by the same pip install; the script never changed"),
  pipEpisode('py-pip-requests-worker', 'worker.py',
    "import time\n\nimport requests\n\nfor attempt in range(3):\n    r = requests.get('https://queue.example.com/next', timeout=2)\n    if r.status_code == 200:\n        print('job', r.json())\n        break\n    time.sleep(1)\n",
    "Python ModuleNotFoundError: No module named 'requests' in worker.py, a third episode of the same pip install (pattern case); worker.py never changed"),
  {
    name: 'py-helpers-touch-import', family: 'python',
    run(out) {
      const s = new Session(this.name, {
        'app.py': "from helpers import slugify\n\nprint(slugify('Hello World'))\n",
      });
      s.open('app.py');
      s.command('python3 app.py', { expect: 'fail' });
      s.command('touch helpers.py', { expect: 0 });
      s.command('python3 app.py', { expect: 'fail' });
      s.open('helpers.py');
      s.edit('helpers.py', "import re\n\n\ndef slugify(text):\n    return re.sub(r'[^a-z0-9]+', '-', text.lower()).strip('-')\n");
      s.command('python3 app.py', { expect: 0 });
      s.finish(out, label({
        family: 'python', description: "Python ModuleNotFoundError for 'helpers', then ImportError: cannot import name 'slugify', fixed by creating helpers.py with touch and writing slugify in it; app.py never changed",
        mustContain: ['helpers.py', 'def slugify'], mustNotClaim: ['app.py'],
      }));
    },
  },
  {
    name: 'py-nameerror-missing-import', family: 'python',
    run(out) {
      const s = new Session(this.name, {
        'report.py': "def stamp(title):\n    return f\"{title} - {datetime.now():%Y-%m-%d}\"\n\n\nprint(stamp('Weekly report'))\n",
      });
      s.open('report.py');
      s.command('python3 report.py', { expect: 'fail' });
      s.edit('report.py', "from datetime import datetime\n\n\ndef stamp(title):\n    return f\"{title} - {datetime.now():%Y-%m-%d}\"\n\n\nprint(stamp('Weekly report'))\n");
      s.command('python3 report.py', { expect: 0 });
      s.finish(out, label({
        family: 'python', description: "Python NameError: name 'datetime' is not defined, fixed by adding the import",
        mustContain: ['from datetime import datetime'], mustNotClaim: [],
      }));
    },
  },
  {
    name: 'pytest-bulk-discount', family: 'pytest',
    run(out) {
      const s = new Session(this.name, {
        'pricing.py': "def price(unit, qty):\n    total = unit * qty\n    if qty > 10:\n        total *= 0.9\n    return round(total, 2)\n",
        'test_pricing.py': "from pricing import price\n\n\ndef test_single_item():\n    assert price(10.0, 1) == 10.0\n\n\ndef test_bulk_discount():\n    assert price(10.0, 10) == 85.0\n",
      });
      s.open('test_pricing.py');
      s.command('python3 -m pytest -q', { expect: 'fail' });
      s.open('pricing.py');
      s.edit('pricing.py', "def price(unit, qty):\n    total = unit * qty\n    if qty >= 10:\n        total *= 0.85\n    return round(total, 2)\n");
      s.command('python3 -m pytest -q', { expect: 0 });
      s.finish(out, label({
        family: 'pytest', description: 'pytest test_bulk_discount fails (assert 100.0 == 85.0): the bulk discount starts at 10 items and is 15%, fixed in pricing.py',
        mustContain: ['test_bulk_discount', 'pricing.py', 'qty >= 10'], mustNotClaim: ['test_pricing.py'],
      }));
    },
  },
];
