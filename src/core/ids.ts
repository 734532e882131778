// Time-sortable random ids: sorting by id sorts by creation, and two windows never collide. The Web
// Crypto global (Node 19+, browsers) keeps src/core free of Node modules.
export function newId(prefix = 'm'): string {
  const t = Date.now().toString(36).padStart(9, '0');
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(6));
  return `${prefix}_${t}${Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('')}`;
}
