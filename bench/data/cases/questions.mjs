// Natural-language questions a developer would type (or ask the chat participant), in English and
// Korean, each aimed at one memory. Written by hand; phrasing deliberately avoids copying the error text.
const q = (expect, en, ko) => [{ expect, lang: 'en', query: en }, { expect, lang: 'ko', query: ko }];

export const questions = [
  ...q('tsc-json-import', 'why does my import of a json file fail in typescript?', '타입스크립트에서 JSON 파일을 import 하면 왜 에러가 나나요?'),
  ...q('tsc-map-get-undefined', 'TypeScript says the value from map.get could be undefined and refuses to assign it to a string', 'Map.get 결과를 string 변수에 넣으면 undefined 일 수 있다고 타입 에러가 나요'),
  ...q('tsc-test-globals', 'describe and it are not recognised in my typescript test files', '테스트 파일에서 describe, it 함수를 찾을 수 없다고 나와요'),
  ...q('tsc-esm-extension', 'do I really have to write .js in relative imports with nodenext module resolution?', 'nodenext 설정에서 상대 경로 import 에 .js 확장자를 꼭 붙여야 하나요?'),
  ...q('tsc-await-non-async', 'await inside forEach callback gives a compile error', 'forEach 콜백 안에서 await 를 쓰면 컴파일 오류가 나요'),
  ...q('node-require-in-esm', 'require is not defined after I added type module to package.json', 'package.json 에 type module 을 넣었더니 require 가 정의되지 않았다고 나와요'),
  ...q('node-esm-missing-extension', 'node cannot find my local module when I import it without the file extension', '확장자 없이 로컬 모듈을 import 하면 노드가 모듈을 찾지 못해요'),
  ...q('node-enoent-cwd', 'my node script cannot find its template file when I run it from the project root', '프로젝트 루트에서 노드 스크립트를 실행하면 템플릿 파일을 찾을 수 없대요'),
  ...q('node-eaddrinuse', 'the server will not start because the port is already taken', '포트가 이미 사용 중이라서 서버가 시작되지 않아요'),
  ...q('node-json-trailing-comma', 'JSON.parse fails on my config file at the closing brace', '설정 JSON 파일을 파싱할 때 닫는 중괄호에서 에러가 나요'),
  ...q('py-module-not-in-venv', 'pip install worked but python still says no module named', 'pip 로 설치했는데도 파이썬이 모듈을 찾을 수 없다고 해요'),
  ...q('py-relative-import-script', 'relative import fails when I run a file inside my package directly', '패키지 안의 파일을 직접 실행하면 상대 import 가 실패해요'),
  ...q('py-circular-import', 'python complains about a partially initialized module when two files import each other', '두 파이썬 파일이 서로 import 하면 부분적으로 초기화된 모듈이라는 에러가 나요'),
  ...q('py-tabs-spaces', 'python rejects my file because of tabs and spaces mixed in indentation', '들여쓰기에 탭과 스페이스가 섞여서 파이썬이 파일을 거부해요'),
  ...q('py-unicode-decode', 'reading a csv exported from excel crashes with a utf-8 decode error', '엑셀에서 내보낸 CSV 를 읽으면 utf-8 디코딩 오류가 나요'),
  ...q('rust-use-after-move', 'rust says I used a vector after passing it to a function', '러스트에서 함수에 벡터를 넘긴 뒤 다시 쓰면 이동된 값이라고 에러가 나요'),
  ...q('rust-missing-display', 'how do I print my own struct with println in rust?', '러스트에서 내가 만든 구조체를 println 으로 출력하려면 어떻게 하나요?'),
  ...q('rust-trait-not-in-scope', 'flush method not found on stdout in rust', '러스트에서 stdout 에 flush 메서드가 없다고 나와요'),
  ...q('ld-missing-libm', 'linker cannot find sqrt even though I included math.h', 'math.h 를 include 했는데도 링커가 sqrt 를 찾지 못해요'),
  ...q('ld-template-in-cpp', 'undefined reference for my template class methods defined in a cpp file', 'cpp 파일에 정의한 템플릿 클래스 메서드가 링크할 때 정의되지 않은 참조라고 나와요'),
  ...q('ld-multiple-definition', 'global variable in a header causes a duplicate symbol link error', '헤더에 전역 변수를 두었더니 링크할 때 중복 정의 에러가 나요'),
  ...q('javac-unreported-exception', 'java will not compile because Files.readString throws IOException', 'Files.readString 이 IOException 을 던져서 자바 컴파일이 안 돼요'),
  ...q('javac-non-static-from-static', 'cannot call an instance method from main in java', '자바 main 에서 인스턴스 메서드를 호출할 수 없어요'),
  ...q('npm-ci-without-lockfile', 'npm ci fails in CI saying it needs a package-lock', 'CI 에서 npm ci 가 package-lock 파일이 필요하다며 실패해요'),
  ...q('npm-workspace-protocol', 'npm install fails with unsupported workspace protocol in a monorepo', '모노레포에서 npm install 하면 workspace 프로토콜을 지원하지 않는다고 나와요'),
  ...q('sh-crlf-bad-interpreter', 'my shell script fails with bad interpreter after editing it on windows', '윈도우에서 수정한 셸 스크립트를 실행하면 bad interpreter 오류가 나요'),
  ...q('sh-bash-syntax-under-sh', 'arrays in my script give a syntax error when run with sh', '스크립트를 sh 로 실행하면 배열 문법에서 구문 오류가 나요'),
];
