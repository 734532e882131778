// Developer vocabulary that lets a question reach an error-text memory without a neural model:
// Korean words map to the English words error output uses, and common English paraphrases map to the
// wording compilers print ("can't find" → "cannot find", "missing" → "not found"). Pure data + lookup.

/** Korean phrase → English words (already in the vocabulary of error messages). Longest phrases first
 * at lookup time, so "찾을 수 없" wins over "찾". Spaces inside a key match any whitespace or none. */
const KOREAN: Record<string, string> = {
  '에러': 'error',
  '오류': 'error',
  '에러가': 'error',
  '실패': 'fail error',
  '예외': 'exception error',
  '경고': 'warning',
  '타입': 'type',
  '형식': 'type',
  '자료형': 'type',
  '할당': 'assign assignable',
  '할당할 수 없': 'not assignable',
  '모듈': 'module',
  '패키지': 'package module',
  '라이브러리': 'library module package',
  '의존성': 'dependency dependencies package',
  '찾을 수 없': 'cannot find not found',
  '찾지 못': 'cannot find not found',
  '없습니다': 'not found missing',
  '존재하지 않': 'not exist not found',
  '없는': 'missing not found',
  '빌림': 'borrow borrowed',
  '대여': 'borrow borrowed',
  '이동': 'move moved',
  '이동된': 'moved move',
  '소유권': 'ownership move borrow',
  '수명': 'lifetime',
  '정의되지 않은': 'undefined not defined',
  '정의되지 않': 'undefined not defined',
  '정의': 'define defined definition',
  '선언': 'declare declared declaration',
  '가져오기': 'import',
  '임포트': 'import',
  '불러오기': 'import require load',
  '내보내기': 'export',
  '권한': 'permission denied access',
  '거부': 'denied refused',
  '접근': 'access',
  '명령': 'command',
  '명령어': 'command',
  '실행': 'run execute',
  '빌드': 'build compile',
  '컴파일': 'compile compiler',
  '테스트': 'test',
  '설치': 'install',
  '버전': 'version',
  '포트': 'port address',
  '이미 사용': 'already in use address',
  '사용 중': 'in use',
  '연결': 'connection connect',
  '거부됨': 'refused denied',
  '시간 초과': 'timeout timed out',
  '타임아웃': 'timeout timed out',
  '메모리': 'memory heap',
  '부족': 'out of insufficient',
  '파일': 'file',
  '디렉터리': 'directory',
  '디렉토리': 'directory',
  '경로': 'path',
  '속성': 'property attribute',
  '프로퍼티': 'property',
  '메서드': 'method',
  '메소드': 'method',
  '함수': 'function',
  '변수': 'variable',
  '인자': 'argument',
  '인수': 'argument',
  '매개변수': 'parameter argument',
  '호출': 'call',
  '객체': 'object',
  '배열': 'array',
  '문자열': 'string str',
  '숫자': 'number',
  '널': 'null',
  '읽을 수 없': 'cannot read',
  '읽기': 'read',
  '쓰기': 'write',
  '구문': 'syntax',
  '문법': 'syntax',
  '예상치 못한': 'unexpected',
  '토큰': 'token',
  '들여쓰기': 'indentation indent',
  '세미콜론': 'semicolon',
  '닫는': 'closing',
  '괄호': 'bracket paren',
  '참조': 'reference',
  '인덱스': 'index',
  '범위': 'range bounds',
  '범위를 벗어': 'out of range bounds',
  '스레드': 'thread',
  '패닉': 'panic',
  '세그멘테이션': 'segmentation fault',
  '링크': 'link linker',
  '링커': 'linker link',
  '심볼': 'symbol',
  '중복': 'duplicate',
  '순환': 'circular',
  '비동기': 'async await promise',
  '프로미스': 'promise',
  '환경 변수': 'environment variable env',
  '환경변수': 'environment variable env',
  '설정': 'config configuration setting',
  '구성': 'config configuration',
  '인증': 'auth authentication credential',
  '토큰이': 'token',
  '데이터베이스': 'database',
  '마이그레이션': 'migration',
  '잠금': 'lock',
  '충돌': 'conflict',
  '병합': 'merge',
  '커밋': 'commit',
  '브랜치': 'branch',
  '린트': 'lint',
  '포맷': 'format',
  '서버': 'server',
  '클라이언트': 'client',
  '요청': 'request',
  '응답': 'response',
  '확장자': 'extension',
  '로컬': 'local',
  '노드': 'node',
  '프로젝트': 'project',
  '루트': 'root',
  '스크립트': 'script',
  '템플릿': 'template',
  '작업 디렉터리': 'cwd working directory',
  '현재 디렉터리': 'cwd current directory',
  '파싱': 'parse',
  '구문 분석': 'parse',
  '중괄호': 'brace',
  '대괄호': 'bracket',
  '쉼표': 'comma',
  '콤마': 'comma',
  '따옴표': 'quote',
  '필요': 'need required',
  '모노레포': 'monorepo workspace',
  '워크스페이스': 'workspace',
  '프로토콜': 'protocol',
  '지원하지 않': 'not supported unsupported',
  '지원되지 않': 'not supported unsupported',
  '잠금 파일': 'lockfile lock',
  '락 파일': 'lockfile lock',
  '락파일': 'lockfile lock',
  '캐시': 'cache',
  '오프라인': 'offline',
  '레지스트리': 'registry',
  '네트워크': 'network',
  '태그': 'tag',
  '이름': 'name',
  '잘못된': 'invalid wrong',
  '유효하지 않': 'invalid',
  '올바르지 않': 'invalid incorrect',
  '허용되지 않': 'not allowed',
  '반환': 'return',
  '리턴': 'return',
  '값': 'value',
  '키': 'key',
  '클래스': 'class',
  '인터페이스': 'interface',
  '제네릭': 'generic',
  '상속': 'inherit extends',
  '생성자': 'constructor',
  '인스턴스': 'instance',
  '초기화': 'initialize initialized',
  '선택적': 'optional',
  '옵셔널': 'optional',
  '누락': 'missing',
  '빠진': 'missing',
  '빠져': 'missing',
  '헤더': 'header',
  '포함': 'include',
  '라인': 'line',
  '줄바꿈': 'newline line ending crlf',
  '줄 끝': 'line ending crlf',
  '인터프리터': 'interpreter',
  '셸': 'shell',
  '쉘': 'shell',
  '환경': 'environment env',
  '가상 환경': 'virtualenv venv',
  '가상환경': 'virtualenv venv',
  '들여': 'indent',
  '탭': 'tab',
  '공백': 'space whitespace',
  '정수': 'integer int',
  '실수': 'float',
  '문자': 'char character',
  '포인터': 'pointer',
  '메모리 누수': 'memory leak',
  '스택': 'stack',
  '오버플로': 'overflow',
  '오버플로우': 'overflow',
  '나누기': 'division divide',
  '0으로': 'zero',
  '제로': 'zero',
  '동시성': 'concurrency',
  '뮤텍스': 'mutex',
  '참조자': 'reference',
  '가변': 'mutable mut',
  '불변': 'immutable',
  '트레이트': 'trait',
  '매크로': 'macro',
  '크레이트': 'crate',
  '패키지 매니저': 'package manager',
  '스키마': 'schema',
  '쿼리': 'query',
  '테이블': 'table',
  '컬럼': 'column',
  '이벤트': 'event',
  '콜백': 'callback',
  '예약어': 'reserved keyword',
  '키워드': 'keyword',
  '엔트리': 'entry',
  '진입점': 'entry main',
  '메인': 'main',
  '출력': 'output print',
  '입력': 'input',
  '로그': 'log',
  '종료': 'exit',
  '종료 코드': 'exit code status',
  '상태 코드': 'status code',
  '시그널': 'signal',
  '프로세스': 'process',
  '자식 프로세스': 'child process spawn',
  '경로를 찾을 수 없': 'path not found enoent',
  '열 수 없': 'cannot open',
  '쓸 수 없': 'cannot write',
  '실행할 수 없': 'cannot execute',
  '호환되지 않': 'incompatible',
  '일치하지 않': 'mismatch not match',
  '맞지 않': 'mismatch not match',
  '동기화': 'sync',
  '오래된': 'outdated stale old',
  '왜': '',
  '어떻게': '',
};

/** English paraphrases → the words error messages use. Applied to whole-word (lowercased) phrases. */
const ENGLISH: Record<string, string> = {
  "can't find": 'cannot find not found',
  "couldn't find": 'cannot find not found',
  'could not find': 'cannot find not found',
  "can't resolve": 'cannot resolve find',
  'could not resolve': 'cannot resolve find',
  'unable to find': 'cannot find not found',
  'unable to resolve': 'cannot resolve find',
  'fails to resolve': 'cannot resolve find',
  'fail to resolve': 'cannot resolve find',
  "doesn't exist": 'not exist not found',
  'does not exist': 'not exist not found',
  "isn't defined": 'not defined undefined',
  'is not defined': 'not defined undefined',
  "can't read": 'cannot read',
  "can't assign": 'not assignable',
  'wrong type': 'type not assignable',
  'type mismatch': 'type not assignable mismatched',
  'missing': 'missing not found',
  'no such file': 'not found enoent',
  'permission denied': 'permission denied eacces',
  'port in use': 'address already in use eaddrinuse',
  'port already in use': 'address already in use eaddrinuse',
  'port is taken': 'address already in use eaddrinuse',
  'out of memory': 'heap out of memory',
  'null pointer': 'null undefined',
  'use after move': 'borrow moved value',
  'moved value': 'borrow moved value',
  'borrow checker': 'borrow borrowed',
  'segfault': 'segmentation fault',
  'timed out': 'timeout timed out',
  'times out': 'timeout timed out',
  'crash': 'error panic',
  'crashes': 'error panic',
  'blows up': 'error',
  'broken': 'error',
  'complains': 'error',
};

interface Entry { key: string; words: string[] }

function compile(table: Record<string, string>): Entry[] {
  return Object.entries(table)
    .map(([key, words]) => ({ key, words: words.split(/\s+/).filter(Boolean) }))
    .sort((a, b) => b.key.length - a.key.length);
}

// Compiled on first use, not at module load: activation and commands that never tokenize pay nothing.
let koreanRe: { re: RegExp; words: string[] }[] | undefined;
let englishRe: { first: string; re: RegExp; words: string[] }[] | undefined;
let englishAny: RegExp | undefined;

function koreanTable() {
  return koreanRe ??= compile(KOREAN).map(e => ({
    re: new RegExp(e.key.split(' ').map(escapeRe).join('\\s*'), 'g'),
    words: e.words,
  }));
}

function englishTable() {
  if (!englishRe) {
    const entries = compile(ENGLISH);
    englishRe = entries.map(e => ({
      first: e.key.split(' ')[0].replace(/'.*$/, ''),
      re: new RegExp(`(?:^|[^a-z0-9'])${e.key.split(' ').map(escapeRe).join('\\s+')}(?=$|[^a-z0-9'])`),
      words: e.words,
    }));
    // Every phrase in one alternation: a text where none of them occurs (most memories) is ruled out by
    // one scan. Each phrase regex only matches where its phrase occurs, so skipping on a miss is exact.
    englishAny = new RegExp(entries.map(e => e.key.split(' ').map(escapeRe).join('\\s+')).join('|'));
  }
  return { table: englishRe, any: englishAny! };
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** English words for the Korean phrases found in `text`. Longer phrases consume their span first. */
export function koreanToEnglish(text: string): string[] {
  const out: string[] = [];
  let rest = text;
  for (const { re, words } of koreanTable()) {
    re.lastIndex = 0;
    if (!re.test(rest)) continue;
    re.lastIndex = 0;
    rest = rest.replace(re, () => { out.push(...words); return ' '; });
  }
  return out;
}

/** Words that paraphrases in lowercase English `text` stand for (to add alongside the text's own words). */
export function englishParaphrases(lower: string): string[] {
  const out: string[] = [];
  const { table, any } = englishTable();
  if (!any.test(lower)) return out;
  for (const { first, re, words } of table) {
    // Cheap substring test first: most texts contain none of the phrases.
    if (!lower.includes(first)) continue;
    if (re.test(lower)) out.push(...words);
  }
  return out;
}

const HANGUL = /[\uac00-\ud7a3]/;

export function hasHangul(text: string): boolean {
  return HANGUL.test(text);
}
