import { describeRealOutput } from './realOutput';

describeRealOutput('mocha', {
  'mocha-strict-equal-objects.a': { tool: 'mocha', code: 'ERR_ASSERTION', message: /AssertionError \[ERR_ASSERTION\]: Values have same structure but are not reference-equal/ },
});
