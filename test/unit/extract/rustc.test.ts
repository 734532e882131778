import { describeRealOutput } from './realOutput';

describeRealOutput('rustc', {
  'rust-use-after-move.a': { tool: 'rustc', code: 'E0382', message: /^borrow of moved value: `items`$/, file: 'src/main.rs', line: 5 },
  'rust-missing-lifetime.a': { tool: 'rustc', code: 'E0106', message: /missing lifetime specifier/, file: 'src/main.rs', line: 1 },
});
