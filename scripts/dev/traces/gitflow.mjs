// git beyond the identity config: a merge conflict resolved by an edit and a commit, a push without an
// upstream fixed by the command git names, and a rebase pull refused for unstaged changes (fixed by
// stashing). The repositories (and a bare remote beside the project) are set up unseen, as they would
// be in a terminal before capture started.
import { story } from './story.mjs';

const setup = [
  'git init -q -b main',
  'git config user.email dev@example.com',
  'git config user.name Dev',
  'git add -A',
  'git commit -q -m init',
].join(' && ');
const withRemote = `${setup} && git init -q --bare ../remote.git && git remote add origin ../remote.git && git push -q -u origin main`;

const config = (port, host) => `export const config = {\n  port: ${port},\n  host: '${host}',\n};\n`;

export const episodes = [
  story({
    name: 'git-merge-conflict-config', family: 'git',
    files: { 'src/config.js': config(8080, 'localhost'), 'README.md': '# api\n' },
    steps: [
      ['unseen', `${setup} && git checkout -q -b feature && sed -i 's/8080/9090/' src/config.js && git commit -qam 'port 9090' && git checkout -q main && sed -i 's/8080/3000/' src/config.js && git commit -qam 'port 3000'`],
      ['run', 'git merge feature', 'fail'],
      ['run', 'git status --short', 0],
      ['open', 'src/config.js'],
      ['edit', 'src/config.js', config(9090, 'localhost')],
      ['run', 'git add src/config.js && git commit -q --no-edit', 0],
    ],
    label: {
      description: 'git merge feature: "CONFLICT (content): Merge conflict in src/config.js" (both branches changed the port), then "Automatic merge failed; fix conflicts and then commit the result."; resolved by editing src/config.js to the feature\'s port 9090 (markers removed) and committing. git status only looked',
      mustContain: ['src/config.js', 'port: 9090'], mustNotClaim: ['README.md'], decoys: ['git status --short'],
      errors: ['Merge conflict in src/config.js'], mustNotSay: ['Automatic merge failed'],
      lessons: 1, resolved: 'fixed', story: 'terminal', classes: ['summary-line', 'read-only'],
    },
    queries: [
      { kind: 'related', file: 'src/config.js', files: { 'src/config.js': config(8080, 'localhost') }, how: `${setup} && git checkout -q -b b && sed -i 's/8080/1/' src/config.js && git commit -qam b && git checkout -q main && sed -i 's/8080/2/' src/config.js && git commit -qam m && git merge b` },
      { kind: 'near', file: 'package.json', files: { 'package.json': '{ "name": "api", "version": "1.0.0" }\n' }, how: `${setup} && git checkout -q -b b && sed -i 's/1.0.0/1.1.0/' package.json && git commit -qam b && git checkout -q main && sed -i 's/1.0.0/2.0.0/' package.json && git commit -qam m && git merge b` },
    ],
  }),
  story({
    name: 'git-push-no-upstream', family: 'git',
    files: { 'notes.md': '# notes\n' },
    steps: [
      ['unseen', `${withRemote} && git checkout -q -b docs-typos`],
      ['open', 'notes.md'],
      ['edit', 'notes.md', '# notes\n\nTypos fixed.\n'],
      ['run', 'git commit -qam "Fix typos"', 0],
      ['run', 'git push', 'fail'],
      ['run', 'git push --set-upstream origin docs-typos', 0],
    ],
    label: {
      description: 'git push on a new branch: "fatal: The current branch docs-typos has no upstream branch." with git\'s hint; fixed by the command it names, git push --set-upstream origin docs-typos. The notes.md edit was committed before and is not the fix',
      mustContain: ['git push --set-upstream origin docs-typos'], mustNotClaim: [], decoys: ['notes.md'],
      errors: ['The current branch docs-typos has no upstream branch.'],
      lessons: 1, resolved: 'fixed', story: 'mixed',
    },
    queries: [
      { kind: 'related', file: 'src/app.js', files: { 'src/app.js': 'export {};\n' }, how: `${withRemote} && git checkout -q -b feature-login && git push` },
      { kind: 'near', file: 'src/app.js', files: { 'src/app.js': 'export {};\n' }, how: `${setup} && git push` },
    ],
  }),
  story({
    name: 'git-pull-rebase-unstaged', family: 'git',
    files: { 'src/app.js': "console.log('v1');\n", 'TODO.md': '- ship\n' },
    steps: [
      ['unseen', `${withRemote} && git clone -q ../remote.git ../other && cd ../other && git config user.email o@example.com && git config user.name O && echo '- docs' >> TODO.md && git commit -qam todo && git push -q`],
      ['open', 'src/app.js'],
      ['edit', 'src/app.js', "console.log('v2');\n"],
      ['run', 'git pull --rebase', 'fail'],
      ['run', 'git stash', 0],
      ['run', 'git pull --rebase', 0],
      ['run', 'git stash pop', 0],
    ],
    label: {
      description: 'git pull --rebase: "error: cannot pull with rebase: You have unstaged changes." (and "Please commit or stash them."); git stash, the pull, and git stash pop. The fix is stashing; the src/app.js edit is the work in progress that caused the refusal, not a fix',
      mustContain: ['git stash'], mustNotClaim: [], decoys: ['src/app.js'],
      errors: ['cannot pull with rebase: You have unstaged changes.'],
      lessons: 1, resolved: 'fixed', story: 'mixed',
    },
    queries: [
      { kind: 'related', file: 'lib/db.js', files: { 'lib/db.js': 'export {};\n' }, how: `${withRemote} && echo '//' >> lib/db.js && git pull --rebase` },
      { kind: 'near', file: 'lib/db.js', files: { 'lib/db.js': 'export {};\n' }, how: `${setup} && git pull --rebase` },
    ],
  }),
];
