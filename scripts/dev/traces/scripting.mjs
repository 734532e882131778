// Scripting tools: perl (strict's "Global symbol" repeated per line, then its summary; @INC), prove
// (Test::More's "Failed test" beside the "Result: FAIL" summary; a flaky test that passes after a docs
// edit), bash (set -u, a typo'd command with a failing `which` between), shellcheck (terminal and the
// editor extension; a check that passes on a plain rerun), jq, sqlite3 scripts, tclsh and awk.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { story } from './story.mjs';

/** Seconds the "service" takes in the flaky perl test: a file outside the project, unseen by capture. */
const FLAKY = join(tmpdir(), 'engram-trace-flaky-perl');
/** Whether the health endpoint is up in the flaky bash check: likewise outside the project. */
const HEALTH = join(tmpdir(), 'engram-trace-flaky-health');

const moneyPm = 'package Money;\nuse strict;\nuse warnings;\nuse Exporter qw(import);\nour @EXPORT_OK = qw(round_half_up cents);\n\nsub round_half_up {\n  my ($x) = @_;\n  return int($x);\n}\n\nsub cents {\n  my ($x) = @_;\n  return $x * 100;\n}\n\n1;\n';
const moneyT = "use strict;\nuse warnings;\nuse Test::More tests => 2;\nuse Money qw(round_half_up cents);\n\nis(cents(2), 200, 'cents multiplies by 100');\nis(round_half_up(2.5), 3, 'rounds half up');\n";

const seed = rows => `DROP TABLE IF EXISTS users;\nCREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE);\n${rows}`;

export const episodes = [
  story({
    name: 'perl-strict-global-symbol', family: 'perl',
    files: { 'report.pl': 'use strict;\nuse warnings;\n\nmy @sales = (120, 80, 45);\n$total = 0;\n$total += $_ for @sales;\nprint "total: $total\\n";\n' },
    steps: [
      ['open', 'report.pl'],
      ['run', 'perl report.pl', 'fail'],
      ['replace', 'report.pl', '$total = 0;', 'my $total = 0;'],
      ['run', 'perl report.pl', 0],
    ],
    label: {
      description: 'perl under use strict: Global symbol "$total" requires explicit package name (printed for lines 5, 6 and 7), then the summary "Execution of report.pl aborted due to compilation errors."; declaring it with my fixed all three',
      mustContain: ['my $total = 0;'], mustNotClaim: [],
      errors: ['Global symbol "$total" requires explicit package name'], mustNotSay: ['aborted due to compilation errors'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line'],
    },
    queries: [
      { kind: 'related', file: 'bin/stats.pl', files: { 'bin/stats.pl': 'use strict;\nmy @xs = (1, 2);\n$total = 0;\n$total += $_ for @xs;\n' }, how: 'perl bin/stats.pl' },
      { kind: 'near', file: 'report.pl', files: { 'report.pl': 'use strict;\nuse warnings;\nmy $n = 1;\nprint $n +;\n' }, how: 'perl report.pl' },
    ],
  }),
  story({
    name: 'perl-cant-locate-lib', family: 'perl',
    files: {
      'lib/Text/Slug.pm': "package Text::Slug;\nuse strict;\nuse warnings;\nuse Exporter qw(import);\nour @EXPORT_OK = qw(slug);\n\nsub slug { my ($s) = @_; $s = lc $s; $s =~ s/\\s+/-/g; return $s; }\n\n1;\n",
      'bin/slugify.pl': 'use strict;\nuse warnings;\nuse Text::Slug qw(slug);\n\nprint slug($ARGV[0] // "Hello World"), "\\n";\n',
    },
    steps: [
      ['open', 'bin/slugify.pl'],
      ['run', 'perl bin/slugify.pl "Good Morning"', 'fail'],
      ['replace', 'bin/slugify.pl', 'use warnings;\n', 'use warnings;\nuse FindBin;\nuse lib "$FindBin::Bin/../lib";\n'],
      ['run', 'perl bin/slugify.pl "Good Morning"', 0],
    ],
    label: {
      description: "perl: Can't locate Text/Slug.pm in @INC (you may need to install the Text::Slug module); the module is the project's own lib/Text/Slug.pm, so the fix is use lib \"$FindBin::Bin/../lib\" in the script, not an install",
      mustContain: ['use lib "$FindBin::Bin/../lib";'], mustNotClaim: ['lib/Text/Slug.pm', 'cpan'],
      errors: ["Can't locate Text/Slug.pm in @INC"],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'bin/title.pl', files: { 'lib/Text/Slug.pm': 'package Text::Slug; 1;\n', 'bin/title.pl': 'use strict;\nuse Text::Slug;\nprint "ok\\n";\n' }, how: 'perl bin/title.pl' },
      { kind: 'near', file: 'bin/slugify.pl', files: { 'bin/slugify.pl': 'use strict;\nuse Text::Unidecode;\nprint "ok\\n";\n' }, how: 'perl bin/slugify.pl' },
    ],
  }),
  story({
    name: 'prove-round-half-up', family: 'prove',
    files: { 'lib/Money.pm': moneyPm, 't/money.t': moneyT },
    steps: [
      ['open', 't/money.t'],
      ['run', 'prove -l t', 'fail'],
      ['open', 'lib/Money.pm'],
      ['replace', 'lib/Money.pm', 'return int($x);', 'return int($x + 0.5);'],
      ['run', 'prove -l t', 0],
    ],
    label: {
      description: "prove -l t: Test::More \"Failed test 'rounds half up'\" (got 2, expected 3), then the summaries \"Failed 1/2 subtests\" and \"Result: FAIL\"; fixed in lib/Money.pm by rounding with int($x + 0.5)",
      mustContain: ['int($x + 0.5)', 'rounds half up'], mustNotClaim: ['t/money.t'],
      errors: ["Failed test 'rounds half up'"], mustNotSay: ['Result: FAIL', 'Failed 1/2 subtests'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line'],
    },
    queries: [
      { kind: 'related', file: 't/invoice.t', files: { 'lib/Money.pm': moneyPm, 't/invoice.t': "use strict;\nuse Test::More tests => 1;\nuse Money qw(round_half_up);\nis(round_half_up(7.5), 8, 'rounds half up');\n" }, how: 'prove -l t' },
      { kind: 'near', file: 't/money.t', files: { 'lib/Money.pm': moneyPm, 't/money.t': "use strict;\nuse Test::More tests => 1;\nuse Money qw(cents);\nis(cents(1.5), 15, 'cents of a half');\n" }, how: 'prove -l t' },
    ],
  }),
  story({
    name: 'prove-flaky-docs-edit', family: 'prove',
    files: {
      'lib/Ping.pm': `package Ping;\nuse strict;\nuse warnings;\n\n# The service's latency: a file outside the project stands in for the network.\nsub ping {\n  open my $fh, '<', ${JSON.stringify(FLAKY)} or die $!;\n  my $delay = <$fh>;\n  sleep $delay;\n  return 'pong';\n}\n\n1;\n`,
      't/ping.t': "use strict;\nuse warnings;\nuse Test::More tests => 1;\nuse Ping;\n\nmy $start = time;\nPing::ping();\nok(time - $start < 2, 'answers within two seconds');\n",
      'README.md': '# ping\n\nRun `prove -l t`.\n',
    },
    steps: [
      () => writeFileSync(FLAKY, '3'),
      ['open', 't/ping.t'],
      ['run', 'prove -l t', 'fail'],
      ['open', 'README.md'],
      ['replace', 'README.md', 'Run `prove -l t`.', 'Run `prove -l t` (needs the ping service).'],
      () => writeFileSync(FLAKY, '0'),
      ['run', 'prove -l t', 0],
    ],
    label: {
      description: "prove: \"Failed test 'answers within two seconds'\" because the service was slow (outside what capture sees); README.md is edited and the rerun passes. The docs edit is not a fix: unexplained",
      mustNotClaim: ['lib/Ping.pm', 't/ping.t'], decoys: ['README.md'],
      resolved: 'unexplained', story: 'terminal', classes: ['flaky', 'unexplained'],
    },
    queries: [
      { kind: 'near', file: 't/ping.t', files: { 't/ping.t': "use strict;\nuse Test::More tests => 1;\nok(0, 'answers within two seconds');\n" }, how: 'prove t' },
    ],
  }),
  story({
    name: 'bash-unbound-variable', family: 'bash',
    files: { 'deploy.sh': '#!/usr/bin/env bash\nset -euo pipefail\n\nout="$TARGET"\nmkdir -p "$out"\necho "deploying to $out"\n' },
    steps: [
      ['open', 'deploy.sh'],
      ['run', 'bash deploy.sh', 'fail'],
      ['replace', 'deploy.sh', 'out="$TARGET"', 'out="${TARGET:-dist}"'],
      ['run', 'bash deploy.sh', 0],
    ],
    label: {
      description: 'bash with set -u: "deploy.sh: line 4: TARGET: unbound variable"; a default, "${TARGET:-dist}", fixed it. The folder the passing run made is output',
      mustContain: ['${TARGET:-dist}'], mustNotClaim: [],
      errors: ['TARGET: unbound variable'],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'scripts/release.sh', files: { 'scripts/release.sh': 'set -u\necho "release to $TARGET"\n' }, how: 'bash scripts/release.sh' },
      { kind: 'near', file: 'deploy.sh', files: { 'deploy.sh': 'set -u\necho "token $API_TOKEN"\n' }, how: 'bash deploy.sh' },
    ],
  }),
  story({
    name: 'bash-command-typo-which', family: 'bash',
    files: { 'build.sh': '#!/usr/bin/env bash\nset -e\nmkdri -p out\ncp -r static out/\necho built\n', 'static/index.html': '<h1>hi</h1>\n' },
    steps: [
      ['open', 'build.sh'],
      ['run', 'bash build.sh', 'fail'],
      ['run', 'which mkdri', 'fail'],
      ['replace', 'build.sh', 'mkdri -p out', 'mkdir -p out'],
      ['run', 'bash build.sh', 0],
    ],
    label: {
      description: 'bash: "build.sh: line 3: mkdri: command not found" (exit 127); `which mkdri` (a look, exit 1) in between; fixed by the typo mkdri -> mkdir in build.sh. The failing which is not an episode of its own and not the fix',
      mustContain: ['mkdir -p out'], mustNotClaim: ['static/index.html'], decoys: ['which mkdri'],
      errors: ['mkdri: command not found'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['read-only'],
    },
    queries: [
      { kind: 'related', file: 'scripts/setup.sh', files: { 'scripts/setup.sh': 'set -e\nmkdri -p cache\n' }, how: 'bash scripts/setup.sh' },
      { kind: 'near', file: 'build.sh', files: { 'build.sh': 'set -e\nrsycn -a static/ out/\n' }, how: 'bash build.sh' },
    ],
  }),
  story({
    name: 'shellcheck-sc2164-cd', family: 'shellcheck',
    files: { 'scripts/release.sh': '#!/bin/bash\ncd dist\ntar czf ../release.tgz .\n' },
    steps: [
      ['open', 'scripts/release.sh'],
      ['run', 'shellcheck scripts/release.sh', 'fail'],
      ['replace', 'scripts/release.sh', 'cd dist\n', 'cd dist || exit 1\n'],
      ['run', 'shellcheck scripts/release.sh', 0],
    ],
    label: {
      description: "shellcheck: SC2164 (warning) Use 'cd ... || exit' or 'cd ... || return' in case cd fails, on `cd dist`; fixed by `cd dist || exit 1`",
      mustContain: ['SC2164', 'cd dist || exit 1'], mustNotClaim: [],
      errors: ["Use 'cd ... || exit' or 'cd ... || return' in case cd fails."],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'scripts/backup.sh', files: { 'scripts/backup.sh': '#!/bin/bash\ncd /var/backups\nls\n' }, how: 'shellcheck scripts/backup.sh' },
      { kind: 'near', file: 'scripts/release.sh', files: { 'scripts/release.sh': '#!/bin/bash\nfor f in $(ls dist); do echo "$f"; done\n' }, how: 'shellcheck scripts/release.sh' },
    ],
  }),
  story({
    name: 'shellcheck-sc1020-editor', family: 'shellcheck',
    files: { 'scripts/check.sh': '#!/bin/bash\nif [ "$1" = "--fast"]; then\n  echo fast\nfi\n' },
    steps: [
      ['open', 'scripts/check.sh'],
      ['server', 'shellcheck'],
      ['replace', 'scripts/check.sh', '"--fast"]', '"--fast" ]'],
    ],
    label: {
      description: 'ShellCheck extension: SC1020 "You need a space before the ]." (with the parse errors that follow it) on `[ "$1" = "--fast"]`; adding the space cleared them',
      mustContain: ['"--fast" ]'], mustNotClaim: [],
      errors: ['You need a space before the ].'],
      lessons: 1, resolved: 'fixed', story: 'editor', classes: ['one-fix-two-errors'],
    },
    queries: [
      { kind: 'related', file: 'scripts/lint.sh', files: { 'scripts/lint.sh': '#!/bin/bash\nif [ -z "$CI"]; then\n  echo local\nfi\n' }, how: 'shellcheck scripts/lint.sh' },
      { kind: 'near', file: 'scripts/check.sh', files: { 'scripts/check.sh': '#!/bin/bash\nif [ "$1" = "--fast" ]\n  echo fast\nfi\n' }, how: 'shellcheck scripts/check.sh' },
    ],
  }),
  story({
    name: 'jq-cannot-index-array', family: 'jq',
    files: {
      'data/repos.json': '{ "items": [ { "name": "engram", "stars": 12 }, { "name": "scratch", "stars": 0 } ] }\n',
      'scripts/names.sh': "#!/bin/bash\nset -eo pipefail\njq -r '.items | .name' data/repos.json\n",
    },
    steps: [
      ['open', 'scripts/names.sh'],
      ['run', 'bash scripts/names.sh', 'fail'],
      ['run', 'cat data/repos.json', 0],
      ['replace', 'scripts/names.sh', "'.items | .name'", "'.items[].name'"],
      ['run', 'bash scripts/names.sh', 0],
    ],
    label: {
      description: 'jq: "jq: error (at data/repos.json:…): Cannot index array with "name"" — .items is an array; the filter .items[].name in scripts/names.sh fixed it. `cat data/repos.json` only looked',
      mustContain: ['.items[].name'], mustNotClaim: ['data/repos.json'], decoys: ['cat data/repos.json'],
      errors: ['Cannot index array with'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['read-only'],
    },
    queries: [
      { kind: 'related', file: 'scripts/stars.sh', files: { 'data/repos.json': '{ "items": [ { "stars": 1 } ] }\n', 'scripts/stars.sh': "jq '.items | .stars' data/repos.json\n" }, how: 'bash scripts/stars.sh' },
      { kind: 'near', file: 'scripts/names.sh', files: { 'data/repos.json': '{ "items": [ "a" ] }\n', 'scripts/names.sh': "jq '.items[] | .name' data/repos.json\n" }, how: 'bash scripts/names.sh' },
    ],
  }),
  story({
    name: 'sqlite-no-column-typo', family: 'sqlite',
    files: { 'db/seed.sql': seed("INSERT INTO users (name, emial) VALUES ('Ada', 'ada@example.com');\n") },
    steps: [
      ['open', 'db/seed.sql'],
      ['run', 'sqlite3 -bail app.db < db/seed.sql', 'fail'],
      ['replace', 'db/seed.sql', '(name, emial)', '(name, email)'],
      ['run', 'sqlite3 -bail app.db < db/seed.sql', 0],
      ['run', 'sqlite3 app.db "SELECT count(*) FROM users"', 0],
    ],
    label: {
      description: 'sqlite3 db/seed.sql: "Parse error near line 3: table users has no column named emial"; the column typo fixed in db/seed.sql. The SELECT after it only checked',
      mustContain: ['(name, email)'], mustNotClaim: [], decoys: ['sqlite3 app.db "SELECT count(*) FROM users"'],
      errors: ['table users has no column named emial'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['read-only'],
    },
    queries: [
      { kind: 'related', file: 'db/fixtures.sql', files: { 'db/fixtures.sql': seed("INSERT INTO users (name, emial) VALUES ('Lin', 'lin@example.com');\n") }, how: 'sqlite3 -bail test.db < db/fixtures.sql' },
      { kind: 'near', file: 'db/seed.sql', files: { 'db/seed.sql': seed("INSERT INTO users (name, phone) VALUES ('Ada', '555');\n") }, how: 'sqlite3 -bail app.db < db/seed.sql' },
    ],
  }),
  story({
    name: 'sqlite-unique-constraint', family: 'sqlite',
    files: { 'db/seed.sql': seed("INSERT INTO users (name, email) VALUES ('Ada', 'ada@example.com');\nINSERT INTO users (name, email) VALUES ('Grace', 'ada@example.com');\n") },
    steps: [
      ['open', 'db/seed.sql'],
      ['run', 'sqlite3 -bail app.db < db/seed.sql', 'fail'],
      ['replace', 'db/seed.sql', "('Grace', 'ada@example.com')", "('Grace', 'grace@example.com')"],
      ['run', 'sqlite3 -bail app.db < db/seed.sql', 0],
    ],
    label: {
      description: "sqlite3: \"Runtime error near line 4: UNIQUE constraint failed: users.email (19)\" — Grace's row was pasted with Ada's email; fixed in db/seed.sql with grace@example.com",
      mustContain: ['grace@example.com'], mustNotClaim: [],
      errors: ['UNIQUE constraint failed: users.email'],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'db/demo.sql', files: { 'db/demo.sql': seed("INSERT INTO users (name, email) VALUES ('A', 'a@x.io');\nINSERT INTO users (name, email) VALUES ('B', 'a@x.io');\n") }, how: 'sqlite3 -bail demo.db < db/demo.sql' },
      { kind: 'near', file: 'db/seed.sql', files: { 'db/seed.sql': seed("INSERT INTO users (name) VALUES ('Ada');\n") }, how: 'sqlite3 -bail app.db < db/seed.sql' },
    ],
  }),
  story({
    name: 'bash-flaky-rerun-passes', family: 'bash',
    files: { 'scripts/check-health.sh': `#!/usr/bin/env bash\n# The service's state: a file outside the project stands in for the network.\nif [ "$(cat ${HEALTH})" != up ]; then\n  echo "health check failed: service not ready" >&2\n  exit 1\nfi\necho "service healthy"\n` },
    steps: [
      () => writeFileSync(HEALTH, 'starting'),
      ['open', 'scripts/check-health.sh'],
      ['run', 'bash scripts/check-health.sh', 'fail'],
      ['run', 'ls scripts', 0],
      () => writeFileSync(HEALTH, 'up'),
      ['run', 'bash scripts/check-health.sh', 0],
    ],
    label: {
      description: 'bash scripts/check-health.sh: "health check failed: service not ready" while the service was starting (outside what capture sees); nothing was changed, and the rerun passed. A pass with no change is unexplained',
      mustNotClaim: ['scripts/check-health.sh'], decoys: ['ls scripts'],
      resolved: 'unexplained', story: 'terminal', classes: ['flaky', 'unexplained'],
    },
    queries: [
      { kind: 'near', file: 'scripts/check-db.sh', files: { 'scripts/check-db.sh': 'echo "health check failed: database not ready" >&2\nexit 1\n' }, how: 'bash scripts/check-db.sh' },
    ],
  }),
  story({
    name: 'tcl-no-such-variable', family: 'tcl',
    files: { 'invoice.tcl': 'set total 250\nset rate 0.2\nset tax [expr {$total * $rat}]\nputs "tax: $tax"\n' },
    steps: [
      ['open', 'invoice.tcl'],
      ['run', 'tclsh invoice.tcl', 'fail'],
      ['replace', 'invoice.tcl', '$total * $rat}', '$total * $rate}'],
      ['run', 'tclsh invoice.tcl', 0],
    ],
    label: {
      description: 'tclsh invoice.tcl: can\'t read "rat": no such variable, followed by Tcl\'s "while executing … invoked from within … (file "invoice.tcl" line 3)" context; the typo fixed to $rate',
      mustContain: ['$total * $rate'], mustNotClaim: [],
      errors: ['can\'t read "rat": no such variable'], mustNotSay: ['while executing'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['note-line'],
    },
    queries: [
      { kind: 'related', file: 'payroll.tcl', files: { 'payroll.tcl': 'set rate 2\nputs [expr {10 * $rat}]\n' }, how: 'tclsh payroll.tcl' },
      { kind: 'near', file: 'invoice.tcl', files: { 'invoice.tcl': 'set total 1\nputs [expr {$total * $discount}]\n' }, how: 'tclsh invoice.tcl' },
    ],
  }),
  story({
    name: 'awk-missing-brace', family: 'awk',
    files: { 'scripts/sum.awk': 'BEGIN { FS = "," }\nNR > 1 { sum += $2\nEND { printf "total %d\\n", sum }\n', 'data/sales.csv': 'day,amount\nmon,120\ntue,80\n' },
    steps: [
      ['open', 'scripts/sum.awk'],
      ['run', 'awk -f scripts/sum.awk data/sales.csv', 'fail'],
      ['replace', 'scripts/sum.awk', 'NR > 1 { sum += $2\n', 'NR > 1 { sum += $2 }\n'],
      ['run', 'awk -f scripts/sum.awk data/sales.csv', 0],
    ],
    label: {
      description: 'awk -f scripts/sum.awk: a syntax error reported at the END line (the rule before it was never closed); closing the brace after sum += $2 fixed it',
      mustContain: ['sum += $2 }'], mustNotClaim: ['data/sales.csv'],
      errors: ['syntax error'],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'scripts/count.awk', files: { 'scripts/count.awk': '{ n++\nEND { print n }\n' }, how: 'awk -f scripts/count.awk /dev/null' },
      { kind: 'near', file: 'scripts/sum.awk', files: { 'scripts/sum.awk': 'BEGIN { print 1 / 0 }\n' }, how: 'awk -f scripts/sum.awk' },
    ],
  }),
  story({
    name: 'bash-syntax-empty-else', family: 'bash',
    files: { 'scripts/clean.sh': '#!/bin/bash\nif [ -d build ]; then\n  rm -rf build\nelse\nfi\necho cleaned\n' },
    steps: [
      ['open', 'scripts/clean.sh'],
      ['run', 'bash scripts/clean.sh', 'fail'],
      ['replace', 'scripts/clean.sh', 'else\nfi\n', 'else\n  echo "nothing to clean"\nfi\n'],
      ['run', 'bash scripts/clean.sh', 0],
    ],
    label: {
      description: "bash: \"scripts/clean.sh: line 5: syntax error near unexpected token `fi'\" (then the line itself, `fi'); an else branch cannot be empty, fixed by giving it a command",
      mustContain: ['echo "nothing to clean"'], mustNotClaim: [],
      errors: ["syntax error near unexpected token `fi'"],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'scripts/reset.sh', files: { 'scripts/reset.sh': 'if true; then\nelse\n  echo x\nfi\n' }, how: 'bash scripts/reset.sh' },
      { kind: 'near', file: 'scripts/clean.sh', files: { 'scripts/clean.sh': 'for f in *; do\n  echo "$f"\n' }, how: 'bash scripts/clean.sh' },
    ],
  }),
  story({
    name: 'perl-cant-locate-method', family: 'perl',
    files: {
      'lib/Cart.pm': 'package Cart;\nuse strict;\nuse warnings;\n\nsub new { my ($class) = @_; return bless { items => [] }, $class; }\nsub add { my ($self, $p) = @_; push @{ $self->{items} }, $p; return $self; }\nsub total { my ($self) = @_; my $t = 0; $t += $_ for @{ $self->{items} }; return $t; }\n\n1;\n',
      'bin/checkout.pl': 'use strict;\nuse warnings;\nuse lib "lib";\nuse Cart;\n\nmy $cart = Cart->new->add(5)->add(7);\nprint "total: ", $cart->sum, "\\n";\n',
    },
    steps: [
      ['open', 'bin/checkout.pl'],
      ['run', 'perl bin/checkout.pl', 'fail'],
      ['run', 'grep -n "^sub" lib/Cart.pm', 0],
      ['replace', 'bin/checkout.pl', '$cart->sum', '$cart->total'],
      ['run', 'perl bin/checkout.pl', 0],
    ],
    label: {
      description: 'perl: Can\'t locate object method "sum" via package "Cart" at bin/checkout.pl line 7; Cart has total (grep only looked), the call fixed in bin/checkout.pl',
      mustContain: ['$cart->total'], mustNotClaim: ['lib/Cart.pm'], decoys: ['grep -n "^sub" lib/Cart.pm'],
      errors: ['Can\'t locate object method "sum" via package "Cart"'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['read-only'],
    },
    queries: [
      { kind: 'related', file: 'bin/receipt.pl', files: { 'lib/Cart.pm': 'package Cart;\nsub new { bless {}, shift }\n1;\n', 'bin/receipt.pl': 'use lib "lib";\nuse Cart;\nprint Cart->new->sum;\n' }, how: 'perl bin/receipt.pl' },
      { kind: 'near', file: 'bin/checkout.pl', files: { 'lib/Cart.pm': 'package Cart;\nsub new { bless {}, shift }\n1;\n', 'bin/checkout.pl': 'use lib "lib";\nuse Cart;\nprint Cart->new->discount;\n' }, how: 'perl bin/checkout.pl' },
    ],
  }),
  story({
    name: 'jq-parse-error-data', family: 'jq',
    files: { 'config/app.json': '{\n  "name": "shop",\n  "port": 8080\n  "debug": false\n}\n', 'scripts/port.sh': "#!/bin/bash\njq -r .port config/app.json\n" },
    steps: [
      ['open', 'config/app.json'],
      ['run', 'bash scripts/port.sh', 'fail'],
      ['replace', 'config/app.json', '"port": 8080\n', '"port": 8080,\n'],
      ['run', 'bash scripts/port.sh', 0],
    ],
    label: {
      description: 'jq: "parse error: Expected separator between values at line 4, column 9" — config/app.json lacked a comma after "port": 8080; fixed in the data file, not the script',
      mustContain: ['"port": 8080,'], mustNotClaim: ['scripts/port.sh'],
      errors: ['parse error: Expected separator between values'],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'config/db.json', files: { 'config/db.json': '{\n  "host": "db"\n  "port": 5432\n}\n' }, how: 'jq . config/db.json' },
      { kind: 'near', file: 'config/app.json', files: { 'config/app.json': '{\n  "name": "shop",\n' }, how: 'jq . config/app.json' },
    ],
  }),
  story({
    name: 'sqlite-no-such-table', family: 'sqlite',
    files: { 'db/schema.sql': seed(''), 'db/report.sql': 'SELECT name, email FROM user ORDER BY name;\n' },
    steps: [
      ['unseen', 'sqlite3 app.db < db/schema.sql'],
      ['open', 'db/report.sql'],
      ['run', 'sqlite3 -bail app.db < db/report.sql', 'fail'],
      ['run', 'sqlite3 app.db .tables', 0],
      ['replace', 'db/report.sql', 'FROM user ORDER', 'FROM users ORDER'],
      ['run', 'sqlite3 -bail app.db < db/report.sql', 0],
    ],
    label: {
      description: 'sqlite3 db/report.sql: "Parse error near line 1: no such table: user" — the table is users (.tables only looked); fixed in db/report.sql',
      mustContain: ['FROM users ORDER'], mustNotClaim: ['db/schema.sql'], decoys: ['sqlite3 app.db .tables'],
      errors: ['no such table: user'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['read-only'],
    },
    queries: [
      { kind: 'related', file: 'db/export.sql', files: { 'db/schema.sql': seed(''), 'db/export.sql': 'SELECT email FROM user;\n' }, how: 'sqlite3 app.db < db/schema.sql && sqlite3 -bail app.db < db/export.sql' },
      { kind: 'near', file: 'db/report.sql', files: { 'db/schema.sql': seed(''), 'db/report.sql': 'SELECT total FROM orders;\n' }, how: 'sqlite3 app.db < db/schema.sql && sqlite3 -bail app.db < db/report.sql' },
    ],
  }),
];
