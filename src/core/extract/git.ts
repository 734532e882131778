// git: a merge, rebase or cherry-pick that stops on a conflict prints "CONFLICT (content): Merge conflict
// in x" per file; "Automatic merge failed; fix conflicts …" after them only sums up (wrappers.ts).
import { RANK } from './types';
import type { Matcher } from './scan';

const CONFLICT = /^CONFLICT \(([\w/ -]+)\): (.+)$/;

export const git: Matcher = {
  name: 'git',
  match({ i, t }, s) {
    const m = CONFLICT.exec(t);
    if (!m) return false;
    const file = /(?:Merge conflict in|^) ?(\S+)(?: deleted in|$)/.exec(m[2])?.[1];
    s.push(s.make(i, 'git', RANK.compiler, { code: 'CONFLICT', message: `${m[2]} (${m[1]})`, file }));
    return true;
  },
};
