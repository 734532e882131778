import { describeRealOutput } from './realOutput';

describeRealOutput('tsc', {
  'tsc-map-get-undefined.a': { tool: 'tsc', code: 'TS2322', message: /^Type 'string \| undefined' is not assignable to type 'string'\./, file: 'src/services/userService.ts', line: 3, column: 9 },
  'tsc-possibly-undefined.b': { tool: 'tsc', code: 'TS18048', message: /'inv\.customer' is possibly 'undefined'/, file: 'src/services/userService.ts', line: 3 },
  'tsc-esm-extension.a': { tool: 'tsc', code: 'TS2835', message: /Relative import paths need explicit file extensions/, file: 'src/index.ts', line: 1 },
  'tsc-implicit-any-param.a': { tool: 'tsc', code: 'TS7006', message: /Parameter 'items' implicitly has an 'any' type/, file: 'src/total.ts', line: 1 },
});
