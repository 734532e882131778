import { describeRealOutput } from './realOutput';

describeRealOutput('pytest', {
  'pytest-fixture-not-found.a': { tool: 'pytest', code: 'fixture-not-found', message: /^fixture 'db_session' not found$/, file: '/home/dev/api-tests/tests/unit/test_users.py', line: 1 },
});
