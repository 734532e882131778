// Time-sortable random ids: sorting by id sorts by creation, and two windows never collide. The Web
// Crypto global (Node 19+, browsers) keeps src/core free of Node modules.
export function newId(prefix = 'm'): string {
  const t = Date.now().toString(36).padStart(9, '0');
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(6));
  return `${prefix}_${t}${Array.from(bytes, b => b.toString(16).padStart(2, '0')).join('')}`;
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = (1n << 64n) - 1n;

/**
 * A stable 64-bit hex digest of `text` (FNV-1a over its UTF-8 bytes). Synchronous, unlike Web Crypto's
 * digest, because ids such as the workspace's are read where nothing can wait. Not for secrets.
 */
export function stableHash(text: string): string {
  let h = FNV_OFFSET;
  for (const b of new TextEncoder().encode(text)) h = ((h ^ BigInt(b)) * FNV_PRIME) & MASK_64;
  return h.toString(16).padStart(16, '0');
}
