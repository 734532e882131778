// Go sessions (Debian's golang-go, offline: GOPROXY=off, modules from the project): build errors with
// their note lines, go vet, go test with its FAIL summary lines, a runtime panic, a local module through
// `go mod edit -replace`, two failing tests fixed by two edits, and the same fix in two folders. Editor
// stories take gopls-like diagnostics from `go vet` (session.mjs goDiagnostics).
import { story } from './story.mjs';

const mod = (name = 'example.com/shop') => `module ${name}\n\ngo 1.19\n`;
const goProject = (files, name) => ({ 'go.mod': mod(name), ...files });

const priceGo = 'package shop\n\n// Discount takes 10% off orders of 100 or more.\nfunc Discount(total int) int {\n\tif total > 100 {\n\t\treturn total * 9 / 10\n\t}\n\treturn total\n}\n';
const priceTest = 'package shop\n\nimport "testing"\n\nfunc TestDiscount(t *testing.T) {\n\tif got := Discount(100); got != 90 {\n\t\tt.Errorf("Discount(100) = %d, want 90", got)\n\t}\n}\n';

const stringsGo = 'package text\n\nimport "strings"\n\n// Slug turns a title into a URL part.\nfunc Slug(s string) string {\n\treturn strings.ReplaceAll(s, " ", "-")\n}\n\n// Title capitalises the first letter.\nfunc Title(s string) string {\n\tif s == "" {\n\t\treturn s\n\t}\n\treturn s[:1] + s[1:]\n}\n';
const stringsTest = 'package text\n\nimport "testing"\n\nfunc TestSlug(t *testing.T) {\n\tif got := Slug("Hello World"); got != "hello-world" {\n\t\tt.Errorf("Slug = %q, want %q", got, "hello-world")\n\t}\n}\n\nfunc TestTitle(t *testing.T) {\n\tif got := Title("ada"); got != "Ada" {\n\t\tt.Errorf("Title = %q, want %q", got, "Ada")\n\t}\n}\n';

const joinMain = dir => `package main\n\nimport "fmt"\n\nfunc main() {\n\tparts := []string{"${dir}", "ready"}\n\tfmt.Println(strings.Join(parts, ": "))\n}\n`;
const withStrings = text => text.replace('import "fmt"\n', 'import (\n\t"fmt"\n\t"strings"\n)\n');

export const episodes = [
  story({
    name: 'go-redeclared-note', family: 'go',
    files: goProject({
      'util.go': 'package main\n\nfunc total(xs []int) int {\n\ts := 0\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n',
      'main.go': 'package main\n\nimport "fmt"\n\nfunc total(xs []int) int {\n\treturn len(xs)\n}\n\nfunc main() {\n\tfmt.Println(total([]int{1, 2, 3}))\n}\n',
    }),
    steps: [
      ['open', 'main.go'],
      ['run', 'go build ./...', 'fail'],
      ['replace', 'main.go', 'func total(xs []int) int {\n\treturn len(xs)\n}\n\n', ''],
      ['run', 'go build ./...', 0],
    ],
    label: {
      description: 'go build: `total redeclared in this block` (at util.go), followed by its note line `other declaration of total` pointing at main.go; fixed by deleting the duplicate total from main.go. The error is the redeclaration, not the note',
      mustContain: ['redeclared in this block', 'main.go', 'return len(xs)'], mustNotClaim: ['util.go', 'go.mod'],
      errors: ['total redeclared in this block'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['note-line'],
    },
    queries: [
      { kind: 'related', file: 'report.go', files: goProject({ 'sum.go': 'package main\n\nfunc sum(a, b int) int { return a + b }\n', 'report.go': 'package main\n\nimport "fmt"\n\nfunc sum(a, b int) int { return a - b }\n\nfunc main() { fmt.Println(sum(1, 2)) }\n' }), how: 'go build ./...' },
      { kind: 'near', file: 'main.go', files: goProject({ 'main.go': 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println(total([]int{1, 2, 3}))\n}\n' }), how: 'go build ./...' },
    ],
  }),
  story({
    name: 'go-vet-printf-verb', family: 'go',
    files: goProject({ 'main.go': 'package main\n\nimport "fmt"\n\nfunc main() {\n\tname := "ada"\n\tfmt.Printf("hello %d\\n", name)\n}\n' }, 'example.com/hello'),
    steps: [
      ['open', 'main.go'],
      ['run', 'go vet ./...', 'fail'],
      ['replace', 'main.go', 'hello %d', 'hello %s'],
      ['run', 'go vet ./...', 0],
    ],
    label: {
      description: 'go vet: fmt.Printf format %d has arg name of wrong type string; fixed by using %s',
      mustContain: ['%s'], mustNotClaim: ['go.mod'],
      errors: ['fmt.Printf format %d has arg name of wrong type string'],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'cmd/label.go', files: goProject({ 'cmd/label.go': 'package main\n\nimport "fmt"\n\nfunc main() {\n\tcity := "Oslo"\n\tfmt.Printf("city %d\\n", city)\n}\n' }, 'example.com/hello'), how: 'go vet ./...' },
      { kind: 'near', file: 'main.go', files: goProject({ 'main.go': 'package main\n\nimport "fmt"\n\nfunc main() {\n\tcount := 3\n\tfmt.Printf("count %s\\n", count)\n}\n' }, 'example.com/hello'), how: 'go vet ./...' },
    ],
  }),
  story({
    name: 'go-test-discount-boundary', family: 'go',
    files: goProject({ 'price.go': priceGo, 'price_test.go': priceTest }),
    steps: [
      ['open', 'price_test.go'],
      ['run', 'go test ./...', 'fail'],
      ['open', 'price.go'],
      ['replace', 'price.go', 'if total > 100 {', 'if total >= 100 {'],
      ['run', 'go test ./...', 0],
    ],
    label: {
      description: 'go test: --- FAIL: TestDiscount (Discount(100) = 100, want 90), then the FAIL summary lines; the discount must start at 100, fixed in price.go. FAIL and the package line are summaries, not the error',
      mustContain: ['TestDiscount', 'price.go', 'total >= 100'], mustNotClaim: ['price_test.go', 'go.mod'],
      errors: ['Discount(100) = 100, want 90'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line'],
    },
    queries: [
      { kind: 'related', file: 'price_test.go', files: goProject({ 'price.go': priceGo, 'price_test.go': priceTest.replace('Discount(100); got != 90', 'Discount(100); got != 90 || Discount(200) != 180') }), how: 'go test ./...' },
      { kind: 'near', file: 'tax_test.go', files: goProject({ 'tax.go': 'package shop\n\nfunc Tax(n int) int { return n / 5 }\n', 'tax_test.go': 'package shop\n\nimport "testing"\n\nfunc TestTax(t *testing.T) {\n\tif got := Tax(100); got != 25 {\n\t\tt.Errorf("Tax(100) = %d, want 25", got)\n\t}\n}\n' }), how: 'go test ./...' },
    ],
  }),
  story({
    name: 'go-unused-import-editor', family: 'go',
    files: goProject({ 'main.go': 'package main\n\nimport (\n\t"fmt"\n\t"os"\n)\n\nfunc main() {\n\tfmt.Println("ready")\n}\n' }, 'example.com/tool'),
    steps: [
      ['open', 'main.go'],
      ['server', 'go'],
      ['replace', 'main.go', 'import (\n\t"fmt"\n\t"os"\n)\n', 'import "fmt"\n'],
    ],
    label: {
      description: 'gopls-style compiler diagnostic `"os" imported but not used` in main.go, fixed in the editor by dropping the import',
      mustContain: ['"os"'], mustNotClaim: ['go.mod'],
      errors: ['"os" imported but not used'],
      lessons: 1, resolved: 'fixed', story: 'editor',
    },
    queries: [
      // `go vet`, not `go build ./...`: with cli/ the only package, go build writes its binary as ./cli, which is
      // that folder, and fails with "build output "cli" already exists and is a directory" before compiling.
      { kind: 'related', file: 'cli/run.go', files: goProject({ 'cli/run.go': 'package main\n\nimport (\n\t"fmt"\n\t"strings"\n)\n\nfunc main() {\n\tfmt.Println("run")\n}\n' }, 'example.com/tool'), how: 'go vet ./...' },
      { kind: 'near', file: 'main.go', files: goProject({ 'main.go': 'package main\n\nimport "fmt"\n\nfunc main() {\n\tos := 1\n\tfmt.Println("ready")\n}\n' }, 'example.com/tool'), how: 'go build ./...' },
    ],
  }),
  story({
    name: 'go-missing-return-editor', family: 'go',
    files: goProject({ 'parse.go': 'package config\n\nimport "strconv"\n\n// Port reads a port number, 8080 when empty.\nfunc Port(s string) int {\n\tif s == "" {\n\t\treturn 8080\n\t}\n\tif n, err := strconv.Atoi(s); err == nil {\n\t\treturn n\n\t}\n}\n' }, 'example.com/config'),
    steps: [
      ['open', 'parse.go'],
      ['server', 'go'],
      ['replace', 'parse.go', '\t\treturn n\n\t}\n}\n', '\t\treturn n\n\t}\n\treturn 8080\n}\n'],
    ],
    label: {
      description: 'gopls-style compiler diagnostic `missing return` at the end of Port in parse.go, fixed by returning the default port',
      mustContain: ['return 8080'], mustNotClaim: ['go.mod'],
      errors: ['missing return'],
      lessons: 1, resolved: 'fixed', story: 'editor',
    },
    queries: [
      { kind: 'related', file: 'limits.go', files: goProject({ 'limits.go': 'package config\n\nfunc Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n}\n' }, 'example.com/config'), how: 'go build ./...' },
      { kind: 'near', file: 'parse.go', files: goProject({ 'parse.go': 'package config\n\nfunc Port(s string) int {\n\treturn 8080, nil\n}\n' }, 'example.com/config'), how: 'go build ./...' },
    ],
  }),
  story({
    name: 'go-mod-replace-local', family: 'go',
    files: goProject({
      'greet/go.mod': mod('example.com/greet'),
      'greet/greet.go': 'package greet\n\n// Hello greets someone by name.\nfunc Hello(name string) string {\n\treturn "hello, " + name\n}\n',
      'main.go': 'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/greet"\n)\n\nfunc main() {\n\tfmt.Println(greet.Hello("ada"))\n}\n',
    }, 'example.com/app'),
    steps: [
      ['open', 'main.go'],
      ['run', 'go build ./...', 'fail'],
      ['run', 'go mod edit -replace example.com/greet=./greet', 0],
      ['run', 'go build ./...', 0],
    ],
    label: {
      description: 'go build: cannot find module providing package example.com/greet (module lookup disabled by GOPROXY=off); the module is in ./greet, fixed by `go mod edit -replace example.com/greet=./greet` (go.mod written by the commands)',
      mustContain: ['go mod edit -replace example.com/greet=./greet'], mustNotClaim: ['main.go', 'greet/greet.go'],
      errors: ['cannot find module providing package example.com/greet'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['install-command'],
    },
    queries: [
      { kind: 'related', file: 'cmd/main.go', files: goProject({ 'greet/go.mod': mod('example.com/greet'), 'greet/greet.go': 'package greet\n\nfunc Hello(n string) string { return n }\n', 'cmd/main.go': 'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/greet"\n)\n\nfunc main() { fmt.Println(greet.Hello("x")) }\n' }, 'example.com/app'), how: 'go build ./...' },
      { kind: 'near', file: 'main.go', files: goProject({ 'main.go': 'package main\n\nimport (\n\t"fmt"\n\n\t"github.com/google/uuid"\n)\n\nfunc main() { fmt.Println(uuid.NewString()) }\n' }, 'example.com/app'), how: 'go build ./...' },
    ],
  }),
  story({
    name: 'go-two-tests-two-fixes', family: 'go',
    files: goProject({ 'text/strings.go': stringsGo, 'text/strings_test.go': stringsTest }, 'example.com/site'),
    steps: [
      ['open', 'text/strings_test.go'],
      ['run', 'go test ./...', 'fail'],
      ['open', 'text/strings.go'],
      ['replace', 'text/strings.go', 'return strings.ReplaceAll(s, " ", "-")', 'return strings.ToLower(strings.ReplaceAll(s, " ", "-"))'],
      ['run', 'go test ./...', 'fail'],
      ['replace', 'text/strings.go', 'return s[:1] + s[1:]', 'return strings.ToUpper(s[:1]) + s[1:]'],
      ['run', 'go test ./...', 0],
    ],
    label: {
      description: 'go test: TestSlug and TestTitle fail in one file; the first edit (ToLower in Slug) fixes TestSlug only, the second (ToUpper in Title) fixes TestTitle: two fixes for two failures, two lessons that must not merge',
      mustContain: ['TestSlug', 'TestTitle', 'strings.ToLower', 'strings.ToUpper'], mustNotClaim: ['text/strings_test.go', 'go.mod'],
      errors: ['TestSlug', 'TestTitle'],
      lessons: 2, resolved: 'fixed', story: 'terminal', classes: ['two-tests'],
    },
    queries: [
      { kind: 'related', file: 'text/strings_test.go', files: goProject({ 'text/strings.go': stringsGo, 'text/strings_test.go': stringsTest.replace(/\nfunc TestTitle[\s\S]*$/, '') }, 'example.com/site'), how: 'go test ./...' },
      { kind: 'near', file: 'text/strings_test.go', files: goProject({ 'text/strings.go': stringsGo.replace('return s[:1] + s[1:]', 'return strings.ToUpper(s[:1]) + s[1:]'), 'text/strings_test.go': 'package text\n\nimport "testing"\n\nfunc TestTrim(t *testing.T) {\n\tif got := Slug(" a "); got != "a" {\n\t\tt.Errorf("Slug = %q, want %q", got, "a")\n\t}\n}\n' }, 'example.com/site'), how: 'go test ./...' },
    ],
  }),
  story({
    name: 'go-nil-map-panic', family: 'go',
    files: goProject({ 'main.go': 'package main\n\nimport (\n\t"fmt"\n\t"strings"\n)\n\nfunc main() {\n\tvar counts map[string]int\n\tfor _, w := range strings.Fields("a b a") {\n\t\tcounts[w]++\n\t}\n\tfmt.Println(counts)\n}\n' }, 'example.com/words'),
    steps: [
      ['open', 'main.go'],
      ['run', 'go run .', 'fail'],
      ['replace', 'main.go', 'var counts map[string]int', 'counts := make(map[string]int)'],
      ['run', 'go run .', 0],
    ],
    label: {
      description: 'go run: panic: assignment to entry in nil map (with its goroutine trace and exit status 2); fixed by making the map',
      mustContain: ['make(map[string]int)'], mustNotClaim: ['go.mod'],
      errors: ['panic: assignment to entry in nil map'],
      lessons: 1, resolved: 'fixed', story: 'terminal',
    },
    queries: [
      { kind: 'related', file: 'index.go', files: goProject({ 'index.go': 'package main\n\nfunc main() {\n\tvar seen map[int]bool\n\tseen[1] = true\n}\n' }, 'example.com/words'), how: 'go run .' },
      { kind: 'near', file: 'main.go', files: goProject({ 'main.go': 'package main\n\nimport "fmt"\n\nfunc main() {\n\txs := []int{1, 2, 3}\n\ti := 3\n\tfmt.Println(xs[i])\n}\n' }, 'example.com/words'), how: 'go run .' },
    ],
  }),
  ...['api', 'worker'].map(dir => story({
    name: `go-undefined-strings-${dir}`, family: 'go',
    files: goProject({ [`cmd/${dir}/main.go`]: joinMain(dir), 'README.md': '# services\n' }, 'example.com/services'),
    steps: [
      ['open', `cmd/${dir}/main.go`],
      ['run', 'go build ./...', 'fail'],
      ['replace', `cmd/${dir}/main.go`, 'import "fmt"\n', 'import (\n\t"fmt"\n\t"strings"\n)\n'],
      ['run', 'go build ./...', 0],
    ],
    label: {
      description: `go build: undefined: strings in cmd/${dir}/main.go, fixed by importing "strings" — the same change as in the other cmd folder, so both traces must end as one lesson (pattern)`,
      mustContain: ['"strings"'], mustNotClaim: ['go.mod', 'README.md'],
      errors: ['undefined: strings'],
      lessons: 1, resolved: 'fixed', story: 'terminal', mergeGroup: 'go-import-strings', classes: ['same-fix-two-folders'],
    },
    queries: dir === 'api' ? [
      { kind: 'related', file: 'cmd/cron/main.go', files: goProject({ 'cmd/cron/main.go': joinMain('cron') }, 'example.com/services'), how: 'go build ./...' },
      { kind: 'near', file: 'cmd/api/main.go', files: goProject({ 'cmd/api/main.go': withStrings(joinMain('api')).replace('strings.Join(parts, ": ")', 'strings.Joined(parts, ": ")') }, 'example.com/services'), how: 'go build ./...' },
    ] : [],
  })),
  story({
    name: 'go-agent-type-mismatch', family: 'go',
    files: goProject({
      'user.go': 'package main\n\nimport "fmt"\n\n// greet prints a greeting for a user name.\nfunc greet(name string) {\n\tfmt.Println("hello", name)\n}\n',
      'main.go': 'package main\n\nfunc main() {\n\tid := 42\n\tgreet(id)\n}\n',
    }, 'example.com/users'),
    steps: [
      ['open', 'main.go'],
      ['run', 'go build ./...', 'fail'],
      ['agentReplace', 'main.go', '\tid := 42\n\tgreet(id)\n', '\tid := 42\n\tgreet(fmt.Sprint(id))\n'],
      ['agentReplace', 'main.go', 'package main\n\n', 'package main\n\nimport "fmt"\n\n'],
      ['run', 'go build ./...', 0],
    ],
    label: {
      description: 'go build: cannot use id (variable of type int) as type string in argument to greet; a coding agent rewrites main.go on disk twice (the call, then the import it needs); user.go never changes',
      mustContain: ['fmt.Sprint(id)'], mustNotClaim: ['user.go', 'go.mod'],
      errors: ['cannot use id (variable of type int) as type string in argument to greet'],
      lessons: 1, resolved: 'fixed', story: 'agent',
    },
    queries: [
      { kind: 'related', file: 'send.go', files: goProject({ 'send.go': 'package main\n\nfunc send(to string) {}\n\nfunc main() {\n\tuid := 7\n\tsend(uid)\n}\n' }, 'example.com/users'), how: 'go build ./...' },
      { kind: 'near', file: 'main.go', files: goProject({ 'main.go': 'package main\n\nfunc greet(age int) {}\n\nfunc main() {\n\tname := "ada"\n\tgreet(name)\n}\n' }, 'example.com/users'), how: 'go build ./...' },
    ],
  }),
];
