// Reads a .vsix (a zip) with Node alone: its entry list and its files, so `npm run package` can check what
// ships and unpack it for the run-time check without unzip or a zip package. Zip64 is not needed (a .vsix
// is far below 4 GB) and is refused.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';

/** [{ name, size, compressedSize, method, offset }] from the zip's central directory. */
export function listVsix(file) {
  const buf = fs.readFileSync(file);
  // The end-of-central-directory record sits in the last 64 KB + 22 bytes (its comment may be up to 64 KB).
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) { eocd = i; break; }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || p === 0xffffffff) throw new Error(`${file}: zip64 is not supported`);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${n}`);
    const method = buf.readUInt16LE(p + 10);
    const compressedSize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28), extraLen = buf.readUInt16LE(p + 30), commentLen = buf.readUInt16LE(p + 32);
    const offset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    entries.push({ name, size, compressedSize, method, offset });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** Writes every file of the .vsix under `dir` (entry names are checked to stay inside it). */
export function extractVsix(file, dir) {
  const buf = fs.readFileSync(file);
  const root = path.resolve(dir);
  for (const e of listVsix(file)) {
    if (e.name.endsWith('/')) continue;
    const out = path.resolve(root, e.name);
    if (!out.startsWith(root + path.sep)) throw new Error(`${file}: entry ${e.name} leaves the folder`);
    const nameLen = buf.readUInt16LE(e.offset + 26), extraLen = buf.readUInt16LE(e.offset + 28);
    const start = e.offset + 30 + nameLen + extraLen;
    const raw = buf.subarray(start, start + e.compressedSize);
    const data = e.method === 0 ? raw : e.method === 8 ? zlib.inflateRawSync(raw) : undefined;
    if (!data) throw new Error(`${file}: ${e.name} uses zip method ${e.method}`);
    if (data.length !== e.size) throw new Error(`${file}: ${e.name} unpacked to ${data.length} bytes, expected ${e.size}`);
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, data);
  }
  return root;
}
