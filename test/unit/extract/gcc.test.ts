import { describeRealOutput } from './realOutput';

describeRealOutput('gcc', {
  'gcc-missing-include-path.a': { tool: 'gcc', message: /^codec\.h: No such file or directory$/, file: 'src/main.c', line: 1 },
  'gcc-undeclared-identifier.b': { tool: 'gcc', message: /‘status’ undeclared/, file: 'src/shell.c', line: 5 },
  'gxx-cout-not-declared.a': { tool: 'gcc', message: /‘cout’ was not declared in this scope/, file: 'src/main.cpp', line: 2 },
});
