// Turns any thrown value into one sentence a user can act on.
export function formatError(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC') return 'The disk is full: Engram paused writing. Free some space; nothing already stored was lost.';
    if (code === 'EACCES' || code === 'EROFS' || code === 'EPERM') return 'Engram cannot write its storage folder (read-only or no permission). Capture is paused; nothing stored was lost.';
    return e.message || e.name;
  }
  return typeof e === 'string' ? e : 'Unknown error';
}
