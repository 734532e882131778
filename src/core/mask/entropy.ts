// Secrets with no prefix and no key name beside them (a diagnostic quoting a value, `x = "…"`), judged
// by the value alone. Digests, hashes and encoded text that build tools print all day are vetoed here,
// because a garbled error message is a worse memory and a recall miss.
import { decodeBase64 } from './blocks';

// Candidate literals: a quoted value with no whitespace, or a bare value after `=`. Group 1 is the
// closing quote (empty when bare), group 2 the value.
const LITERAL_CHARS = String.raw`[A-Za-z0-9+/=_\-.~!@#$%^&*]`;
// Inside quotes a password may also use brackets and punctuation (no whitespace: prose and types have it).
const QUOTED_CHARS = String.raw`[A-Za-z0-9+/=_\-.~!@#$%^&*()[\]{}<>|?:;,]`;
export const QUOTED_LITERAL = new RegExp(String.raw`(?<=(['"\x60]))(${QUOTED_CHARS}{20,512})(\1)`, 'g');
export const ASSIGNED_LITERAL = new RegExp(String.raw`(?<![=!<>])=[ \t]*()(${LITERAL_CHARS}{20,512})(?![A-Za-z0-9+/=_\-.~!@#$%^&*])`, 'g');
const HEX_RUN = /^[0-9a-fA-F]+$/;
const BASE64_RUN = /^[A-Za-z0-9+/_-]+={0,2}$/;
// Also what names an id rather than a key (a certificate's serial, a commit, a request id, a server's
// one-time nonce in a Digest challenge) and openssl's
// `SHA2-256(file)= <hex>`.
const DIGEST_NAME = /(?:sha(?:1|224|256|384|512)(?:sum)?|md5(?:sum)?|blake2b?|crc32|hash|digest|checksum|etag|integrity|c?nonce|opaque|serial|fingerprint|commit|revision|oid|(?:request|trace|span|build|correlation)[-_]?id|uuid|guid)["']?\s*[=:]\s*["'\x60]?$|\b(?:sha[23]?|md5|blake2[bs]?|sm3|shake)[\w-]*\([^()\n]{1,200}\)\s*=\s*$/i;
/** sha512-…, sha256:…, md5-… : a digest says what it is. */
const DIGEST = /^(?:sha(?:1|224|256|384|512)|md5|blake2b?|xxh(?:32|64|128)?)[-:]/i;

/**
 * Is this literal, found at `start` in `text`, a secret judged on its own? Hex runs (git SHAs, sha256
 * digests) only when assigned with `=`; base64 that decodes to readable text (Relay ids, encoded module
 * paths, "user:name" pairs) never; file names carrying a content hash (main.3f9a1c2b.js) never.
 */
export function secretLiteral(value: string, text: string, start: number): boolean {
  if (DIGEST.test(value)) return false;
  // A digest named just before it: pip's `…whl#sha256=<hex>`, `--hash=sha256:…`, `checksum=…`, `etag="…"`.
  if (DIGEST_NAME.test(text.slice(Math.max(0, start - 220), start))) return false;
  if (HEX_RUN.test(value) && !/=\s*["'\x60]?$/.test(text.slice(Math.max(0, start - 3), start))) return false;
  if (/\.(?:js|mjs|cjs|css|map|wasm|png|svg|woff2?|json|html|chunk)$/i.test(value)) return false;
  if (encodedText(value)) return false;
  return looksHighEntropy(value);
}

/** base64 whose bytes are almost all printable ASCII is encoded text, not key material. */
function encodedText(v: string): boolean {
  if (v.length < 12 || !BASE64_RUN.test(v)) return false;
  const bytes = decodeBase64(v);
  if (bytes.length < 8) return false;
  let printable = 0;
  for (let i = 0; i < bytes.length; i++) { const c = bytes.charCodeAt(i); if (c >= 32 && c < 127) printable++; }
  if (printable / bytes.length < 0.95) return false;
  // "user:Passw0rd" is Basic credentials, not a Relay id ("User:123") or an encoded path.
  const cred = /^[^:\s]{1,64}:(\S{6,})$/.exec(bytes);
  // A capitalised type name before the colon is a GraphQL/Relay global id.
  if (cred && /^[A-Z][A-Za-z]+:/.test(bytes)) return true;
  return !(cred && /[A-Za-z]/.test(cred[1]) && /\d/.test(cred[1]) && !/^[0-9a-f-]+$/i.test(cred[1]));
}

/**
 * Does `v` look like a random secret rather than something a person or compiler wrote? Random strings
 * over [A-Za-z0-9] switch character class between neighbours about 45% of the time (not counting a
 * capital starting a lowercase word); identifiers, paths and words stay well below, so camelCase names
 * such as getElementsByTagName or ModuleNotFoundError survive. Plus Shannon entropy near that of random
 * text of this length, and every class present (or a long hex / base64 run).
 */
export function looksHighEntropy(v: string): boolean {
  if (v.length < 20 || v.includes('://') || /[«»]/.test(v)) return false;
  const entropy = shannonEntropy(v);
  if (HEX_RUN.test(v)) return v.length >= 32 && /\d/.test(v) && /[a-fA-F]/.test(v) && entropy >= 3.0;
  const upper = /[A-Z]/.test(v), lower = /[a-z]/.test(v), digit = /\d/.test(v);
  const base64ish = v.length >= 32 && BASE64_RUN.test(v) && /[+/]|=$/.test(v);
  if (!(upper && lower && digit) && !base64ish) return false;
  // Paths and dotted names (src/fooBar/index.ts, com.example.MyClass) switch class rarely, like words.
  // A long pure base64 run (AWS secret keys, SAS signatures) may hold a readable stretch, so it gets a
  // lower bar than free-form text.
  if (caseSwitchRatio(v) < (base64ish && upper && lower && digit ? 0.2 : 0.3)) return false;
  // Expected entropy of random text grows with length until the alphabet caps it (hex-like text: 16).
  const hexish = !/[g-zG-Z]/.test(v.slice(1));
  return entropy >= Math.min(hexish ? 3.3 : 4.2, Math.log2(v.length) - 0.95);
}

function shannonEntropy(v: string): number {
  const counts = new Map<number, number>();
  for (let i = 0; i < v.length; i++) { const c = v.charCodeAt(i); counts.set(c, (counts.get(c) ?? 0) + 1); }
  let h = 0;
  for (const n of counts.values()) { const p = n / v.length; h -= p * Math.log2(p); }
  return h;
}

const charClass = (c: number) => (c >= 65 && c <= 90 ? 1 : c >= 97 && c <= 122 ? 2 : c >= 48 && c <= 57 ? 3 : 0);

/** Share of neighbouring alphanumeric pairs that switch class, a capital followed by lowercase excepted. */
function caseSwitchRatio(v: string): number {
  let pairs = 0, switches = 0;
  for (let i = 1; i < v.length; i++) {
    const a = charClass(v.charCodeAt(i - 1)), b = charClass(v.charCodeAt(i));
    if (!a || !b) continue;
    pairs++;
    if (a !== b && !(a === 1 && b === 2)) switches++;
  }
  return pairs ? switches / pairs : 0;
}
