// An `engram serve` child process as the tests that start one see it: resolved with its URL once it says
// where it listens (stderr), rejected when it exits first or stays silent; stopped with SIGTERM and awaited.
// One place for both the unit suite's server processes and the extension-host team server test.
import type { ChildProcess } from 'child_process';

export interface ServeProcess { child: ChildProcess; url: string; stderr: () => string }

export function whenListening(child: ChildProcess, timeoutMs = 150_000): Promise<ServeProcess> {
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`engram serve did not start: ${err}`)), timeoutMs);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) { clearTimeout(timer); resolve({ child, url: m[1], stderr: () => err }); }
    });
    child.on('exit', code => { clearTimeout(timer); reject(new Error(`engram serve exited with ${code}: ${err}`)); });
  });
}

export async function stopServe(p: ServeProcess | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null) return;
  const done = new Promise(resolve => p.child.once('exit', resolve));
  p.child.kill('SIGTERM');
  await done;
}
