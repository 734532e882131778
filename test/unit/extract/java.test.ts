import { describeRealOutput } from './realOutput';

describeRealOutput('java', {
  'java-npe-null-field.a': { tool: 'java', code: 'NullPointerException', message: /^java\.lang\.NullPointerException: Cannot invoke "String\.length\(\)"/, file: 'Main.java', line: 4, frames: true },
});
