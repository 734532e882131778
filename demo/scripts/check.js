// `npm run check` fails until config/settings.json exists with a numeric "port".
// Create it (e.g. {"port": 8080}) and run again: the failure and its fix form one episode.
const fs = require('fs');
const path = require('path');
const file = path.join(__dirname, '..', 'config', 'settings.json');
if (!fs.existsSync(file)) {
  console.error(`Error: ENOENT: no such file or directory, open '${file}'`);
  console.error('    at Object.openSync (node:fs:573:18)');
  process.exit(1);
}
const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
if (typeof settings.port !== 'number') {
  console.error(`TypeError: settings.port must be a number, got ${typeof settings.port}`);
  process.exit(1);
}
console.log(`check ok: port ${settings.port}`);
