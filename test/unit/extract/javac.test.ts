import { describeRealOutput } from './realOutput';

describeRealOutput('javac', {
  'javac-missing-import.a': { tool: 'javac', message: /^cannot find symbol\nsymbol: class List$/, file: 'Orders.java', line: 2 },
  'javac-unreported-exception.b': { tool: 'javac', message: /unreported exception InterruptedException/, file: 'Wait.java', line: 3 },
});
