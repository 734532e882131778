// Issue 22's baseline: mask/blocks.ts as it was before issue 22, for bench/mask.mjs only.
// Private keys and credential blobs that span lines or hide behind base64: PEM blocks (also cut off by
// bounded capture, or JSON-escaped), PuTTY key files, Kubernetes secrets (tls.key holding a base64 PEM,
// .dockerconfigjson) and raw hex private keys named as such.
import { notPlaceholder, type Detector } from './detector';

export interface BlockSpan { start: number; end: number; kind: string }

const PEM_BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----/g;
// Whole base64 lines after BEGIN (real or JSON-escaped newlines); stops at the first other line.
const PEM_BODY = /(?:[ \t]*(?:\r?\n|\\n)[ \t]*[A-Za-z0-9+/=]+(?=[ \t]*(?:\r?\n|\\n|"|$)))*/y;
// PuTTY .ppk: everything from Private-Lines through Private-MAC is the key.
const PUTTY = /Private-Lines:\s*\d{1,4}(?:[ \t]*(?:\r?\n|\\n)[ \t]*[A-Za-z0-9+/=]+(?=[ \t]*(?:\r?\n|\\n|"|$)))*(?:[ \t]*(?:\r?\n|\\n)[ \t]*Private-(?:MAC|Hash):\s*[0-9a-fA-F]+)?/g;
// base64 of "-----BEGIN " (tls.key in a Kubernetes secret, a key pasted through base64).
const B64_PEM = /LS0tLS1CRUdJTi[A-Za-z0-9+/]{8,20000}={0,2}/g;

export function privateKeyBlocks(text: string): BlockSpan[] {
  const out: BlockSpan[] = [];
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
    const endMarker = text.indexOf('-----END ', m.index + m[0].length);
    let end: number;
    if (endMarker >= 0 && endMarker - m.index < 20000) {
      const close = text.indexOf('-----', endMarker + 9);
      end = close >= 0 ? close + 5 : endMarker + 9;
    } else {
      // Truncated (bounded capture): swallow the whole base64 body that follows.
      PEM_BODY.lastIndex = m.index + m[0].length;
      const body = PEM_BODY.exec(text);
      end = PEM_BODY.lastIndex > 0 && body ? m.index + m[0].length + body[0].length : m.index + m[0].length;
    }
    out.push({ start: m.index, end, kind: 'private-key' });
    PEM_BEGIN.lastIndex = end;
  }
  PUTTY.lastIndex = 0;
  for (let m = PUTTY.exec(text); m; m = PUTTY.exec(text)) out.push({ start: m.index, end: m.index + m[0].length, kind: 'private-key' });
  B64_PEM.lastIndex = 0;
  for (let m = B64_PEM.exec(text); m; m = B64_PEM.exec(text)) {
    // Certificates are public; only an encoded private key is masked.
    if (/PRIVATE KEY/.test(decodeBase64(m[0].slice(0, 80)))) out.push({ start: m.index, end: m.index + m[0].length, kind: 'private-key' });
  }
  return out;
}

export function decodeBase64(s: string): string {
  try {
    const clean = s.replace(/-/g, '+').replace(/_/g, '/');
    return atob(clean.slice(0, clean.length - (clean.length % 4)));
  } catch {
    return '';
  }
}

export const BLOCK_DETECTORS: Detector[] = [
  // base64 of '{"auths":' (a .dockerconfigjson value) and the "auth" of a decoded docker config.
  { kind: 'docker-config', hint: /eyJhdXRocyI6/, re: /\beyJhdXRocyI6[A-Za-z0-9+/]{8,20000}={0,2}/g },
  { kind: 'docker-config', hint: /"auth"/, re: /"auth"\s*:\s*"([A-Za-z0-9+/]{8,2000}={0,2})"/g, group: 1 },
  // A hex private key (wallets, ed25519 seeds) named as such in a key or in prose.
  { kind: 'private-key', hint: /key|seed/i, re: /(?<!«secret:)(?:private[ _-]?key|priv[ _-]?key|secret[ _-]?key|seed)[^\n]{0,30}?(?<![0-9A-Za-z])(?:0x)?([0-9a-fA-F]{64}(?:[0-9a-fA-F]{64})?)(?![0-9A-Za-z])/gi, group: 1, accept: notPlaceholder },
  // tls.key / ssh-privatekey / any *.key entry with a long base64 value (Kubernetes secret data).
  { kind: 'private-key', hint: /\.key|private|ssh-privatekey/i, re: /(?<![\w.-])(?:tls\.key|ssh-privatekey|[\w-]{1,40}\.key|private[_-]?key)["']?\s*:\s*["']?([A-Za-z0-9+/]{40,20000}={0,2})/g, group: 1 },
];
