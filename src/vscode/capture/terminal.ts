// Terminal commands → the capture session, through shell integration only: the command line, cwd and
// exit code come from VS Code, the output from execution.read() (size-capped, ANSI stripped). What the
// output says (its error, the excerpt kept) is the session's to decide, as for a replayed trace. Without
// shell integration nothing is guessed: the limitation is reported once and nothing is captured.
import * as vscode from 'vscode';
import type { CommandRun } from '../../core/capture/capturePipeline';
import { boundText, sanitizeText } from '../../core/text';
import type { Logger } from '../../core/types';

/** How long a new terminal may take to report shell integration before we say it has none. */
const INTEGRATION_GRACE_MS = 10_000;
/** After the end event, how long to wait for the output stream to drain. */
const DRAIN_MS = 1500;

export interface TerminalSink {
  readonly active: boolean;
  maxOutputBytes(): number;
  commandEnded(run: CommandRun & { id: string }): void;
  setTerminalLimitation(message: string | undefined): void;
  readonly logger: Logger;
}

/** Keeps at most `cap` characters: the head and a rolling tail (the error is usually at the end). */
class BoundedBuffer {
  private head = '';
  private tail = '';
  private dropped = 0;
  constructor(private readonly cap: number) {}
  push(chunk: string): void {
    const half = Math.floor(this.cap / 2);
    if (this.head.length < half) {
      const take = Math.min(chunk.length, half - this.head.length);
      this.head += chunk.slice(0, take);
      chunk = chunk.slice(take);
    }
    if (!chunk) return;
    this.tail += chunk;
    if (this.tail.length > half) {
      this.dropped += this.tail.length - half;
      this.tail = this.tail.slice(this.tail.length - half);
    }
  }
  text(): string {
    return this.dropped ? `${this.head}\n…[${this.dropped} characters omitted]…\n${this.tail}` : this.head + this.tail;
  }
}

export function watchTerminals(sink: TerminalSink): vscode.Disposable {
  const disposables: vscode.Disposable[] = [];
  const readers = new Map<vscode.TerminalShellExecution, { buffer: BoundedBuffer; done: Promise<void> }>();
  const without = new Set<vscode.Terminal>();
  let reported = false;
  let ordered: Promise<unknown> = Promise.resolve();

  const updateLimitation = () => {
    if (without.size === 0) { sink.setTerminalLimitation(undefined); return; }
    const msg = vscode.l10n.t('Shell integration is not active in {0} terminal(s), so Engram cannot see commands there and captures nothing from them.', without.size);
    if (!reported) {
      reported = true;
      sink.logger.warn(`terminal capture unavailable: no shell integration in "${[...without].map(t => t.name).join('", "')}" after ${INTEGRATION_GRACE_MS} ms (enable terminal.integrated.shellIntegration.enabled, use bash/zsh/fish/pwsh)`);
    }
    sink.setTerminalLimitation(msg);
  };

  const timers = new Set<ReturnType<typeof setTimeout>>();
  const check = (t: vscode.Terminal) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!vscode.window.terminals.includes(t) || t.shellIntegration) return;
      without.add(t);
      updateLimitation();
    }, INTEGRATION_GRACE_MS);
    timers.add(timer);
  };
  vscode.window.terminals.forEach(check);

  disposables.push(
    vscode.window.onDidOpenTerminal(check),
    vscode.window.onDidCloseTerminal(t => { if (without.delete(t)) updateLimitation(); }),
    vscode.window.onDidChangeTerminalShellIntegration(e => {
      if (!without.delete(e.terminal)) return;
      sink.logger.info(`shell integration became active in "${e.terminal.name}"; its commands are captured`);
      updateLimitation();
    }),
    vscode.window.onDidStartTerminalShellExecution(e => {
      if (!sink.active) return;
      // read() must be called right away or early output is lost; the loop only appends (bounded).
      const buffer = new BoundedBuffer(sink.maxOutputBytes());
      const done = (async () => {
        try {
          for await (const chunk of e.execution.read()) buffer.push(chunk);
        } catch (err) {
          sink.logger.debug(`terminal output stream ended early: ${String(err)}`);
        }
      })();
      readers.set(e.execution, { buffer, done });
    }),
    vscode.window.onDidEndTerminalShellExecution(e => {
      // No reader: the start event was missed (capture resumed mid-command, or VS Code did not send it
      // for a quick run). The command line and exit code are still known; its output is not, and an
      // empty output of a command that failed the same way before reads as that error (the session's
      // CommandErrors).
      const reader = readers.get(e.execution) ?? { buffer: new BoundedBuffer(0), done: Promise.resolve() };
      readers.delete(e.execution);
      if (!sink.active) return;
      const line = e.execution.commandLine.value;
      const cwd = e.execution.cwd?.fsPath;
      const exitCode = e.exitCode;
      const id = `terminal:${Date.now().toString(36)}:${Math.random().toString(36).slice(2, 8)}`;
      // Delivered after the stream drained, off this event handler, in the order runs ended (a fail
      // then a quick pass must not arrive swapped).
      ordered = ordered.then(() => Promise.race([reader.done, new Promise(r => setTimeout(r, DRAIN_MS))])).then(() => new Promise<void>(resolve => {
        setImmediate(() => {
          try {
            if (!sink.active || !line.trim()) return;
            const output = boundText(sanitizeText(reader.buffer.text()), sink.maxOutputBytes());
            if (!output.trim() && exitCode) sink.logger.info(`no output came through for \`${line}\` (exit ${exitCode}); read as its last failure when it had one`);
            sink.commandEnded({ id, command: line, cwd, exitCode, output });
          } catch (err) {
            sink.logger.error(err instanceof Error ? err : String(err));
          } finally {
            resolve();
          }
        });
      }));
    }),
  );
  return vscode.Disposable.from(...disposables, { dispose: () => { readers.clear(); timers.forEach(clearTimeout); timers.clear(); } });
}
