// Python's own test runner, unittest: a failing assertEqual fixed by a coding agent's write (its
// "FAILED (failures=1)" summary is not the error), and an ImportError that unittest wraps as a failed
// test module ("Failed to import test module"), fixed in the test's import.
import { story } from './story.mjs';

const textPy = "def title_case(s):\n    return s.lower()\n\n\ndef initials(s):\n    return ''.join(w[0] for w in s.split()).upper()\n";
const textTest = "import unittest\n\nfrom text import initials, title_case\n\n\nclass TextTest(unittest.TestCase):\n    def test_title_case(self):\n        self.assertEqual(title_case('hello world'), 'Hello World')\n\n    def test_initials(self):\n        self.assertEqual(initials('ada lovelace'), 'AL')\n\n\nif __name__ == '__main__':\n    unittest.main()\n";

export const episodes = [
  story({
    name: 'unittest-title-case-agent', family: 'unittest',
    files: { 'text.py': textPy, 'test_text.py': textTest },
    steps: [
      ['open', 'test_text.py'],
      ['run', 'python3 -m unittest -v', 'fail'],
      ['agentReplace', 'text.py', 'return s.lower()', 'return s.title()'],
      ['run', 'python3 -m unittest -v', 0],
    ],
    label: {
      description: "python3 -m unittest: FAIL: test_title_case (AssertionError: 'hello world' != 'Hello World'), test_initials passes, \"FAILED (failures=1)\"; a coding agent changed text.py to return s.title(), and the rerun passed",
      mustContain: ['s.title()', 'test_title_case'], mustNotClaim: ['test_text.py'],
      errors: ["AssertionError: 'hello world' != 'Hello World'"], mustNotSay: ['FAILED (failures=1)'],
      lessons: 1, resolved: 'fixed', story: 'agent', classes: ['summary-line'],
    },
    queries: [
      { kind: 'related', file: 'test_headings.py', files: { 'text.py': textPy, 'test_headings.py': "import unittest\nfrom text import title_case\n\n\nclass H(unittest.TestCase):\n    def test_title_case(self):\n        self.assertEqual(title_case('hello world'), 'Hello World')\n" }, how: 'python3 -m unittest' },
      { kind: 'near', file: 'test_text.py', files: { 'text.py': textPy, 'test_text.py': "import unittest\nfrom text import initials\n\n\nclass T(unittest.TestCase):\n    def test_initials(self):\n        self.assertEqual(initials('grace hopper'), 'G.H.')\n" }, how: 'python3 -m unittest' },
    ],
  }),
  story({
    name: 'unittest-import-renamed-function', family: 'unittest',
    files: {
      'loader.py': "import csv\n\n\ndef read_rows(path):\n    with open(path, newline='') as f:\n        return list(csv.DictReader(f))\n",
      'test_loader.py': "import unittest\n\nfrom loader import parse_csv\n\n\nclass LoaderTest(unittest.TestCase):\n    def test_reads_header(self):\n        with open('sample.csv', 'w') as f:\n            f.write('a,b\\n1,2\\n')\n        self.assertEqual(parse_csv('sample.csv'), [{'a': '1', 'b': '2'}])\n",
    },
    steps: [
      ['open', 'test_loader.py'],
      ['run', 'python3 -m unittest', 'fail'],
      ['run', 'grep -n "def " loader.py', 0],
      ['edit', 'test_loader.py', "import unittest\n\nfrom loader import read_rows\n\n\nclass LoaderTest(unittest.TestCase):\n    def test_reads_header(self):\n        with open('sample.csv', 'w') as f:\n            f.write('a,b\\n1,2\\n')\n        self.assertEqual(read_rows('sample.csv'), [{'a': '1', 'b': '2'}])\n"],
      ['run', 'python3 -m unittest', 0],
    ],
    label: {
      description: "python3 -m unittest: ERROR: test_loader, \"ImportError: Failed to import test module: test_loader\" wrapping ImportError: cannot import name 'parse_csv' from 'loader'; the function is read_rows (grep only looked), the test's import and call fixed. sample.csv is written by the test",
      mustContain: ['from loader import read_rows'], mustNotClaim: ['loader.py'], decoys: ['grep -n "def " loader.py', 'sample.csv'],
      errors: ["cannot import name 'parse_csv' from 'loader'"],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['note-line', 'read-only'],
    },
    queries: [
      { kind: 'related', file: 'test_import.py', files: { 'loader.py': 'def read_rows(p):\n    return []\n', 'test_import.py': 'import unittest\nfrom loader import parse_csv\n' }, how: 'python3 -m unittest' },
      { kind: 'near', file: 'test_loader.py', files: { 'loader.py': 'def read_rows(p):\n    return []\n', 'test_loader.py': 'import unittest\nfrom loader import write_rows\n' }, how: 'python3 -m unittest' },
    ],
  }),
];
