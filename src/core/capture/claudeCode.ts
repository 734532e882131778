// Claude Code hook payloads → capture trace events, so an agent's own failing commands and its fixes become
// episodes through the same pipeline as the editor's (issue: agent sessions). Documented shapes
// (code.claude.com/docs hooks reference): every payload has session_id, cwd, hook_event_name; PostToolUse
// and PostToolUseFailure add tool_name, tool_input (Bash: command; Write: file_path, content; Edit:
// file_path, old_string, new_string, replace_all; MultiEdit: file_path, edits[]) and tool_response
// (Bash: stdout, stderr, interrupted; Write: type "create"|"update"); PostToolUseFailure has `error`.
// PreToolUse has tool_name and tool_input and runs before the tool: for Write/Edit/MultiEdit the file's
// text then is the change's "before" (an `open` event), so a Write over an existing file is diffed too.
// Stop (the agent finished its turn) stores what ended so far; SessionEnd stores the rest.
// Pure: the caller reads the file's current text.
import { primaryError } from '../extract';
import type { TraceEvent } from './trace';

export interface HookContext {
  /** The project folder paths are made relative to. */
  project: string;
  /** Current text of a file (absolute path), or undefined when it cannot be read. */
  readText(file: string): string | undefined;
  now: number;
}

/** `stop`: store the episodes that ended so far (the session goes on); `ends`: store all and close. */
export type HookResult = { events: TraceEvent[]; sessionId: string; ends: boolean; stop?: true } | { error: string };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Workspace-relative path with forward slashes, or undefined for a file outside the project. */
export function projectRelative(project: string, file: string): string | undefined {
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');
  const root = norm(project);
  const f = norm(file);
  const rel = f.startsWith(root + '/') ? f.slice(root.length + 1) : !f.startsWith('/') && !/^[A-Za-z]:/.test(f) ? f.replace(/^\.\//, '') : undefined;
  if (!rel || rel.split('/').includes('..')) return undefined;
  return rel;
}

/** The text before an Edit/MultiEdit, from the text after and the replacements (undefined if not exact). */
function undoEdits(after: string, edits: { old_string: string; new_string: string; replace_all?: boolean }[]): string | undefined {
  let text = after;
  for (const e of [...edits].reverse()) {
    if (!e.new_string) return undefined; // a deletion cannot be located again
    if (!text.includes(e.new_string)) return undefined;
    text = e.replace_all ? text.split(e.new_string).join(e.old_string) : text.replace(e.new_string, () => e.old_string);
  }
  return text;
}

function bashOutput(resp: unknown, error?: string): string {
  if (typeof resp === 'string') return [resp, error ?? ''].filter(Boolean).join('\n');
  const r = isObj(resp) ? resp : {};
  return [str(r.stdout), str(r.stderr), error].filter(Boolean).join('\n');
}

function bashExit(resp: unknown, output: string, error?: string): number {
  const r = isObj(resp) ? resp : {};
  for (const k of ['exit_code', 'exitCode', 'returnCode', 'code']) if (typeof r[k] === 'number') return r[k] as number;
  if (r.interrupted === true) return 130;
  if (error !== undefined) return Number(/exit code:?\s*(\d+)/i.exec(error)?.[1] ?? 1);
  // PostToolUse's Bash response carries no exit code: output the extractor reads as a failure is one
  // (on the trace corpus it finds an error in exactly the failing runs), anything else passed.
  return primaryError(output) ? 1 : 0;
}

export function claudeHookEvents(payload: unknown, ctx: HookContext): HookResult {
  if (!isObj(payload)) return { error: 'the hook input is not a JSON object' };
  const sessionId = str(payload.session_id);
  const event = str(payload.hook_event_name);
  if (!sessionId || !/^[\w.-]{1,128}$/.test(sessionId)) return { error: 'the hook input has no usable session_id' };
  if (!event) return { error: 'the hook input has no hook_event_name' };
  const t = ctx.now;
  if (event === 'SessionEnd') return { events: [{ t, type: 'end' }], sessionId, ends: true };
  if (event === 'Stop') return { events: [], sessionId, ends: false, stop: true };
  const tool = str(payload.tool_name);
  const input = isObj(payload.tool_input) ? payload.tool_input : {};
  if (event === 'PreToolUse') {
    if (tool !== 'Write' && tool !== 'Edit' && tool !== 'MultiEdit') return { events: [], sessionId, ends: false };
    const abs = str(input.file_path);
    const file = abs && projectRelative(ctx.project, abs);
    const before = abs && file ? ctx.readText(abs) : undefined;
    // A file that does not exist yet has no before-text: PostToolUse's "create" says so.
    return { events: before === undefined || !file ? [] : [{ t, type: 'open', file, text: before }], sessionId, ends: false };
  }
  if (event !== 'PostToolUse' && event !== 'PostToolUseFailure') return { events: [], sessionId, ends: false };
  const failure = event === 'PostToolUseFailure' ? str(payload.error) ?? 'the tool failed' : undefined;
  if (tool === 'Bash') {
    const command = str(input.command);
    if (!command?.trim()) return { events: [], sessionId, ends: false };
    const output = bashOutput(payload.tool_response, failure).slice(-64 * 1024);
    return { events: [{ t, type: 'command', command, cwd: '.', exitCode: bashExit(payload.tool_response, output, failure), output }], sessionId, ends: false };
  }
  if ((tool === 'Write' || tool === 'Edit' || tool === 'MultiEdit') && !failure) {
    const abs = str(input.file_path);
    const file = abs && projectRelative(ctx.project, abs);
    if (!abs || !file) return { events: [], sessionId, ends: false };
    const after = ctx.readText(abs) ?? (tool === 'Write' ? str(input.content) : undefined);
    if (after === undefined) return { events: [], sessionId, ends: false };
    let before: string | null | undefined;
    if (tool === 'Write') {
      const type = isObj(payload.tool_response) ? str(payload.tool_response.type) : undefined;
      before = type === 'create' ? null : undefined;
    } else {
      const edits = tool === 'Edit' ? [input] : Array.isArray(input.edits) ? input.edits.filter(isObj) : [];
      const clean = edits.map(e => ({ old_string: str(e.old_string) ?? '', new_string: str(e.new_string) ?? '', replace_all: e.replace_all === true }));
      before = undoEdits(after, clean);
    }
    const ev: TraceEvent = before === undefined ? { t, type: 'disk', file, text: after } : { t, type: 'disk', file, text: after, before };
    return { events: [ev], sessionId, ends: false };
  }
  return { events: [], sessionId, ends: false };
}
