// Time-sortable random ids: sorting by id sorts by creation, and two windows never collide.
import { randomBytes } from 'crypto';

export function newId(prefix = 'm'): string {
  const t = Date.now().toString(36).padStart(9, '0');
  return `${prefix}_${t}${randomBytes(6).toString('hex')}`;
}
