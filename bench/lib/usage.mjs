// Preloaded into a measured node process (node --import bench/lib/usage.mjs …): at exit it writes the
// process's CPU time (user + system, ms) and peak RSS (MB) as JSON to fd 3, which the bench opened as a pipe.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  const u = process.resourceUsage();
  try { writeSync(3, JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, rssMb: u.maxRSS / 1024 })); } catch { /* not measured */ }
});
