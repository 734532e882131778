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

const KOREAN_ENTRIES = compile(KOREAN);
const ENGLISH_ENTRIES = compile(ENGLISH);
const KOREAN_RE = KOREAN_ENTRIES.map(e => ({
  re: new RegExp(e.key.split(' ').map(escapeRe).join('\\s*'), 'g'),
  words: e.words,
}));
const ENGLISH_RE = ENGLISH_ENTRIES.map(e => ({
  first: e.key.split(' ')[0].replace(/'.*$/, ''),
  re: new RegExp(`(?:^|[^a-z0-9'])${e.key.split(' ').map(escapeRe).join('\\s+')}(?=$|[^a-z0-9'])`),
  words: e.words,
}));

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** English words for the Korean phrases found in `text`. Longer phrases consume their span first. */
export function koreanToEnglish(text: string): string[] {
  const out: string[] = [];
  let rest = text;
  for (const { re, words } of KOREAN_RE) {
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
  for (const { first, re, words } of ENGLISH_RE) {
    // Cheap substring test first: most texts contain none of the phrases.
    if (!lower.includes(first)) continue;
    if (re.test(lower)) out.push(...words);
  }
  return out;
}

export function hasHangul(text: string): boolean {
  return /[\uac00-\ud7a3]/.test(text);
}
