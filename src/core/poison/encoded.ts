// Base64 that decodes to readable text: an instruction can hide in it ("decode and follow: SWdub3Jl…").
// The guard decodes each long base64 run and reads the text as one more form of the field. Binary
// payloads (keys, hashes, images) do not decode to text and are left alone.

const RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{20,4000}={0,2}(?![A-Za-z0-9+/=_-])/g;
const MAX_RUNS = 20;

/** The readable texts that base64 runs in `text` decode to (UTF-8, almost all printable). */
export function decodedBase64Texts(text: string): string[] {
  if (text.length < 20 || !/[A-Za-z0-9+/]{20}/.test(text)) return [];
  const out: string[] = [];
  RUN.lastIndex = 0;
  for (let m = RUN.exec(text); m && out.length < MAX_RUNS; m = RUN.exec(text)) {
    const run = m[0];
    // Words and identifiers are not base64 of anything: it needs mixed case and some variety.
    if (!/[a-z]/.test(run) || !/[A-Z]/.test(run)) continue;
    const decoded = utf8(binary(run));
    if (decoded && readable(decoded)) out.push(decoded);
  }
  return out;
}

function binary(run: string): string {
  const std = run.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  try { return atob(std.slice(0, std.length - (std.length % 4 === 1 ? 1 : 0)) + '='.repeat((4 - (std.length % 4)) % 4)); } catch { return ''; }
}

function utf8(bin: string): string {
  if (!bin) return '';
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  try { return new TextDecoder('utf-8', { fatal: true }).decode(bytes); } catch { return ''; }
}

/** Mostly letters, spaces and punctuation: text a model would read. */
function readable(s: string): boolean {
  if (s.length < 12) return false;
  let ok = 0;
  for (const c of s) if (/[\p{L}\p{N}\p{P}\p{Zs}\n<>|=+$^`~]/u.test(c)) ok++;
  return ok / [...s].length >= 0.95 && /\p{L}{3}/u.test(s) && /\s/.test(s);
}
