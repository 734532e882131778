import * as assert from 'assert';
import { newId } from '../../src/core/ids';
import { findSecrets, looksHighEntropy, maskDeep, maskSecrets } from '../../src/core/mask';
import { maskMark, NOT_SECRETS, SECRET_CORPUS } from '../fixtures/secrets';
import { ISSUE_LINES, PROSE_LINES, TOOL_LINES } from '../fixtures/ordinary';
import { readFixtures } from '../fixtures/tool-output';

describe('mask: secrets never survive masking', () => {
  for (const s of SECRET_CORPUS) {
    it(`masks a ${s.kind} in "${s.context.slice(0, 40).replace(/\n/g, ' ')}…"`, () => {
      const masked = maskSecrets(s.context);
      assert.ok(!masked.includes(s.value), `value leaked: ${masked}`);
      // No long fragment of the secret may remain either (partial masking is a leak too).
      const probe = s.value.replace(/\\n|\n/g, '').slice(8, 24);
      if (probe.length >= 12) assert.ok(!masked.includes(probe), `fragment leaked: ${masked}`);
      const expectMark = maskMark(s.kind);
      assert.ok(masked.includes(expectMark), `expected ${expectMark} in ${masked}`);
    });
  }

  it('findSecrets reports the kind and the exact span of each secret', () => {
    for (const s of SECRET_CORPUS.filter(x => x.kind !== 'home')) {
      const hits = findSecrets(s.context);
      const start = s.context.indexOf(s.value);
      const hit = hits.find(h => h.start <= start && h.end >= start + s.value.length);
      assert.ok(hit, `no hit covering ${s.kind} in ${s.context}`);
      assert.strictEqual(hit.kind, s.kind);
    }
  });

  it('keeps the surrounding text readable (key names, schemes, hosts)', () => {
    const line = 'DATABASE_URL=postgres://app:Xy7pQ2mZ9rT4@db.internal:5432/app';
    assert.strictEqual(maskSecrets(line), 'DATABASE_URL=postgres://app:«secret:url-password»@db.internal:5432/app');
    assert.strictEqual(maskSecrets('Authorization: Bearer abcdefghijklmnop1234'), 'Authorization: Bearer «secret:authorization»');
  });

  it('masks multi-line and truncated PEM private keys entirely', () => {
    const body = Array.from({ length: 5 }, (_, i) => `MIIEowIBAAKCAQEA${i}bXlmYWtla2V5ZGF0YWZvcnRlc3RzMTIzNDU2Nzg5MA`).join('\n');
    const full = `before\n-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----\nafter`;
    assert.strictEqual(maskSecrets(full), 'before\n«secret:private-key»\nafter');
    const cut = `-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n…[2048 bytes omitted]…`;
    const masked = maskSecrets(cut);
    assert.ok(!masked.includes('MIIEowIBAAKCAQEA'), masked);
  });

  it('is idempotent', () => {
    for (const s of SECRET_CORPUS) {
      const once = maskSecrets(s.context);
      assert.strictEqual(maskSecrets(once), once);
    }
  });

  it('leaves ordinary developer text alone', () => {
    for (const t of NOT_SECRETS) assert.strictEqual(maskSecrets(t, { genericHome: false }), t);
  });

  it('leaves the damaged lines of issue 10, password/phone prose and real tsc/node/npm/git/python/cargo/javac output unchanged', () => {
    assert.ok(TOOL_LINES.length >= 60, 'the ordinary corpus is present');
    const changed = [...ISSUE_LINES, ...PROSE_LINES, ...TOOL_LINES].filter(t => maskSecrets(t, { genericHome: false }) !== t)
      .map(t => `${t}\n  -> ${maskSecrets(t, { genericHome: false })}`);
    assert.deepStrictEqual(changed, []);
  });

  it('does not flag anything in real compiler/runtime output (false positives would garble lessons)', () => {
    const fixtures = readFixtures();
    assert.ok(fixtures.length > 50, 'fixtures present');
    for (const f of fixtures) {
      const hits = findSecrets(f.text).filter(h => h.kind !== 'email');
      assert.deepStrictEqual(hits.map(h => `${h.kind}:${f.text.slice(h.start, h.end)}`), [], f.name);
    }
  });
});

describe('mask: high-entropy values with no prefix and no key name', () => {
  // Values a diagnostic can quote on their own; below 20 characters entropy cannot tell a password from a word.
  // Bare hex (a Twilio auth token) and base64 of readable text (a Kubernetes secret's value) quoted alone
  // look exactly like a git SHA or a Relay id, which must stay: those kinds are caught by their context.
  const loose = SECRET_CORPUS.filter(s => !['email', 'private-key', 'home', 'twilio-auth-token'].includes(s.kind) && !(s.kind === 'password' && /=$/.test(s.value)) && s.value.length >= 20 && !/\s/.test(s.value));

  it('masks every corpus secret quoted alone in a TypeScript diagnostic, with each quote style', () => {
    assert.ok(loose.length > 20, 'corpus present');
    for (const s of loose) {
      for (const q of ["'", '"', '`']) {
        const line = `src/config.ts(12,7): error TS2322: Type '${q}${s.value}${q}' is not assignable to type 'number'.`;
        const masked = maskSecrets(line);
        assert.ok(!masked.includes(s.value), `${s.kind} leaked: ${masked}`);
        assert.ok(!masked.includes(s.value.slice(4, 18)), `${s.kind} fragment leaked: ${masked}`);
        assert.ok(masked.startsWith('src/config.ts(12,7): error TS2322: Type '), masked);
        assert.ok(masked.endsWith(' is not assignable to type \'number\'.'), masked);
      }
    }
  });

  it('names the kind when a known format matched, high-entropy otherwise', () => {
    const aws = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    assert.strictEqual(maskSecrets(`Type '"${aws}"' is not assignable to type 'number'.`),
      `Type '"«secret:high-entropy»"' is not assignable to type 'number'.`);
    const gh = loose.find(s => s.kind === 'github-token')!;
    assert.strictEqual(findSecrets(`x: '${gh.value}'`)[0].kind, 'github-token');
  });

  it('masks a bare value assigned with =', () => {
    const sas = loose.find(s => s.kind === 'azure-sas')!.value;
    assert.strictEqual(maskSecrets(`sig=${sas}&sv=2022`).includes(sas), false);
    const pw = loose.find(s => s.kind === 'env-secret' && /[^A-Za-z0-9]/.test(s.value))?.value ?? loose[0].value;
    const masked = maskSecrets(`const k = '${pw}';`);
    assert.strictEqual(masked, "const k = '«secret:high-entropy»';");
  });

  it('leaves identifiers, paths, URLs, memory ids, UUIDs and type names alone', () => {
    const keep = [
      "error TS2339: Property 'getElementsByTagName' does not exist on type 'XMLHttpRequestEventTarget'.",
      "Cannot find module './components/FooBar/useLayoutEffectInDevTools2' from 'src/app/index.tsx'",
      "Type 'Promise<Record<string,unknown>>' is not assignable to type 'HTMLInputElement123ABC'.",
      "GET 'https://registry.npmjs.org/@types%2fnode/-/node-20.11.5.tgz' failed",
      `memory '${newId()}' not found; see "${newId('e')}"`,
      "request id '3fa85f64-5717-4562-b3fc-2c963f66afa6' failed",
      "'org.springframework.boot.autoconfigure.SpringBootApplication2' could not be loaded",
      'const version = "1.2.3-beta.4+build.20260101";',
      "export NODE_OPTIONS='--max-old-space-size=4096'",
    ];
    for (const t of keep) assert.strictEqual(maskSecrets(t, { genericHome: false }), t);
    assert.strictEqual(looksHighEntropy('ModuleNotFoundError_in_packageLoader'), false);
  });

  it('masks long hex digests only when quoted or assigned, and stays idempotent', () => {
    const hex = '3f786850e387550fdab836ed7e6dc881de23001b';
    assert.strictEqual(maskSecrets(`commit ${hex} (HEAD)`), `commit ${hex} (HEAD)`);
    assert.strictEqual(maskSecrets(`API_SIG="${hex}"`), 'API_SIG="«secret:high-entropy»"');
    const once = maskSecrets(`x = '${loose[1].value}'`);
    assert.strictEqual(maskSecrets(once), once);
  });
});

describe('mask: personal data', () => {
  it('replaces the home directory with ~ (POSIX and Windows forms)', () => {
    assert.strictEqual(maskSecrets('at /home/dana/work/app/src/a.ts:3', { homeDir: '/home/dana' }), 'at ~/work/app/src/a.ts:3');
    assert.strictEqual(maskSecrets('C:\\Users\\Dana\\repo\\x.ts', { homeDir: 'C:\\Users\\Dana' }), '~\\repo\\x.ts');
    // a different user's home is still a personal path
    assert.strictEqual(maskSecrets('open /Users/lee/.aws/credentials'), 'open ~/.aws/credentials');
    // a sibling directory that only shares the prefix is not the home directory
    assert.strictEqual(maskSecrets('/home/dana2/x', { homeDir: '/home/dana', genericHome: false }), '/home/dana2/x');
  });

  it('masks e-mail addresses but not git remotes or example domains', () => {
    assert.strictEqual(maskSecrets('ping lee.kim+ci@corp.co.kr now'), 'ping «email» now');
    assert.strictEqual(maskSecrets('git@github.com:acme/app.git'), 'git@github.com:acme/app.git');
    assert.strictEqual(maskSecrets('user@example.com'), 'user@example.com');
  });

  it('team export: user name, host name and absolute paths', () => {
    const text = 'dana@buildbox-7:/srv/checkouts/app$ cat /srv/checkouts/app/src/a.ts /etc/hosts (user dana)';
    const out = maskSecrets(text, { userName: 'dana', hostName: 'buildbox-7', absolutePaths: true, workspaceRoots: ['/srv/checkouts/app'] });
    assert.ok(!out.includes('dana'), out);
    assert.ok(!out.includes('buildbox-7'), out);
    assert.ok(out.includes('src/a.ts'), out);
    assert.ok(out.includes('«path»/hosts'), out);
    assert.ok(!out.includes('/srv/checkouts'), out);
  });
});

describe('mask: checks that decide personal data (issue 22, round 3)', () => {
  // Each check is tested on a number that passes and the same number with one digit changed: a detector
  // that matched the shape alone would mask both.
  const oneOff = (v: string, at: number) => v.slice(0, at) + String((Number(v[at]) + 1) % 10) + v.slice(at + 1);
  const masks = (text: string, mark: string) => maskSecrets(text).includes(mark);
  it('international phone numbers: a known calling code and a national number of its country\'s length', () => {
    for (const p of ['+49 30 12345678', '+81 90-1234-5678', '+33 6 12 34 56 78', '0044 20 7946 0958', '+8210 1234 5678', '+55 11 91234-5678'])
      assert.ok(masks(`call ${p} now`, '«phone»'), p);
    for (const t of ['+1 2 3', '(+12 more)', '+0100', '+999 1234 5678', '+49 30 1', '1.0.0+20130313144700', 'id 0049301234567', '00000010: 0044 2079 4601'])
      assert.strictEqual(maskSecrets(t, { genericHome: false }), t);
  });
  it('national ids with a check digit are masked only when the check holds', () => {
    const cases: [string, string, number][] = [
      ['CPF 111.444.777-35', '«national-id»', 13], ['身份证号 11010519491231002X', '«national-id»', 10],
      ['DNI 12345678Z', '«national-id»', 6], ['codice fiscale RSSMRA85T10A562S', '«national-id»', 17],
    ];
    for (const [text, mark, at] of cases) {
      assert.ok(masks(text, mark), text);
      const wrong = oneOff(text, at);
      assert.strictEqual(maskSecrets(wrong), wrong, `one digit off still masked: ${wrong}`);
    }
  });
  it('named ids: an SSN as issued, a NINO with a valid prefix, an Aadhaar with its Verhoeff digit', () => {
    assert.ok(masks('SSN: 123-45-6789', '«national-id»'));
    assert.strictEqual(maskSecrets('SSN: 000-45-6789'), 'SSN: 000-45-6789');
    assert.ok(masks('National Insurance number: AB 12 34 56 C', '«national-id»'));
    assert.strictEqual(maskSecrets('NINO: BG 12 34 56 C'), 'NINO: BG 12 34 56 C');
    assert.ok(masks('Aadhaar: 2345 6789 0124', '«national-id»') !== masks('Aadhaar: 2345 6789 0125', '«national-id»'));
    assert.strictEqual(maskSecrets('Permission denied (publickey) 2345 6789 0124'), 'Permission denied (publickey) 2345 6789 0124');
  });
  it('a credential flag\'s value keeps a glued & and a KEY=value\'s a glued #; a help text\'s column is no value', () => {
    assert.strictEqual(maskSecrets('sshpass -p Ab3&xY9zQ ssh web1'), 'sshpass -p «secret:cli-password» ssh web1');
    assert.strictEqual(maskSecrets('PGPASSWORD=Ab3#xY9zQ psql'), 'PGPASSWORD=«secret:env-secret» psql');
    assert.strictEqual(maskSecrets('x && PGPASSWORD=Ab3xY9zQ # comment'), 'x && PGPASSWORD=«secret:env-secret» # comment');
    for (const t of ['  -W, --password           force password prompt', '--password=PASS', 'Using --password via the CLI is insecure'])
      assert.strictEqual(maskSecrets(t, { genericHome: false }), t);
  });
});

describe('mask: maskDeep', () => {
  it('masks every string in an object graph and secret-named fields whole', () => {
    const token = 'ghp_' + 'A1b2C3d4'.repeat(4) + 'Zz99';
    const input = { lesson: { errorText: `fatal: auth failed ${token}`, tags: ['a', `owner dana.park@acme-corp.io`] }, password: 'hunter2!', count: 3, ok: true, nothing: null };
    const out = maskDeep(input);
    assert.strictEqual(out.lesson.errorText, 'fatal: auth failed «secret:github-token»');
    assert.deepStrictEqual(out.lesson.tags, ['a', 'owner «email»']);
    assert.strictEqual(out.password, '«secret:field»');
    assert.strictEqual(out.count, 3);
    assert.strictEqual(out.ok, true);
    assert.strictEqual(out.nothing, null);
    assert.ok(input.lesson.errorText.includes(token), 'input not mutated');
  });

  it('cannot be used for prototype pollution', () => {
    const hostile = JSON.parse('{"__proto__": {"polluted": "yes"}, "a": {"constructor": {"prototype": {"polluted2": "yes"}}}}');
    const out = maskDeep(hostile) as Record<string, unknown>;
    assert.strictEqual(({} as Record<string, unknown>).polluted, undefined);
    assert.strictEqual(({} as Record<string, unknown>).polluted2, undefined);
    assert.strictEqual(Object.getPrototypeOf(out), Object.prototype);
    assert.ok(!Object.prototype.hasOwnProperty.call(out, '__proto__'));
  });

  it('copies only own enumerable keys and survives cycles', () => {
    const proto = { inherited: 'sk-proj-' + 'x1Y2'.repeat(8) };
    const obj: Record<string, unknown> = Object.create(proto);
    obj.own = 'fine';
    Object.defineProperty(obj, 'hidden', { value: 'secret', enumerable: false });
    const cyclic: Record<string, unknown> = { name: 'root' };
    cyclic.self = cyclic;
    const out = maskDeep({ obj, cyclic }) as { obj: Record<string, unknown>; cyclic: Record<string, unknown> };
    assert.deepStrictEqual(Object.keys(out.obj), ['own']);
    assert.strictEqual(out.cyclic.self, out.cyclic);
  });
});
