// Turns ended episodes into stored memories, off the hot path (background: debounced queue) or right at
// episode end (hotPath). Diffs, templates, the optional model summary and masking all happen here;
// masking runs before anything is written, once per text that comes in from outside: the episode's
// material (episodeMaterial), the model's answers and an agent's explanation. What is built from
// masked parts (the model's prompt, the memories) is not masked again; the store's maskRecord is the
// last net under all of it. When the disk refuses a write, the job stays queued (nothing
// is lost) and capture pauses with a clear message until the user resumes.
import type * as vscode from 'vscode';
import { summaryTemplate } from '../../core/episodeSummary';
import { modelEvidence, modelLessonPrompt, parseModelLesson, unsupportedClaims } from '../../core/capture/modelLesson';
import { episodeMaterial, episodeMemories } from '../../core/capture/episodeMemories';
import { appliesTo, type OutcomeLedger } from '../../core/capture/outcomeLedger';
import type { TrackedEpisode } from '../../core/episodeTracker';
import { newId } from '../../core/ids';
import { maskDeep, maskSecrets, type Masked } from '../../core/mask';
import type { FeedbackOutcome, Logger, Owner } from '../../core/types';
import type { MemoryStore } from '../../store/index';

const BACKGROUND_DELAY_MS = 300;

export interface FinalizeJob {
  tracked?: TrackedEpisode;
  /** Text of the touched files when the episode began (null: created since), and at its end (open documents only). */
  before?: ReadonlyMap<string, string | null>;
  after?: ReadonlyMap<string, string | null>;
  /** Where to read a touched file from disk when it was not open at the end. */
  uris?: Map<string, vscode.Uri>;
  codeBefore?: string;
  domain?: string;
  /**
   * Automatic outcomes: written only for a memory about the episode's error (`signature`) and not
   * judged by the user since the episode began (`since`), as checked when written.
   */
  feedback: AutomaticFeedback[];
  /** Progress, so a retry after a failed write does not write twice. */
  written: { episode?: boolean; lesson?: boolean; feedback: number };
  episodeId?: string;
  lessonId?: string;
  /** An agent's explanation (engram_remember during or right after the episode): it writes the lesson's why. */
  explanation?: AgentExplanation;
}

export interface AgentExplanation { rootCause: string; fixApproach: string; rule?: string; notWhen?: string }

export interface AutomaticFeedback { id: string; outcome: FeedbackOutcome; reason: string; file?: string; signature?: string; since: number }

export interface FinalizerDeps {
  store(): Promise<MemoryStore>;
  owner(): Owner;
  mode(): 'background' | 'hotPath';
  useLanguageModel(): boolean;
  /** `maskedMaterial` is built from the masked material only. */
  summarize(maskedMaterial: string): Promise<string | undefined>;
  /** Asks the model for the lesson (masked prompt in, raw answer out); undefined when there is none. */
  explain(maskedPrompt: string): Promise<string | undefined>;
  /** Reads a touched file that was not open at the end (vscode.workspace.fs.readFile). */
  readFile(uri: vscode.Uri): Promise<Uint8Array>;
  /** The store refused a write (disk full, read-only): pause capture, keep the job. */
  onStorageError(e: unknown): void;
  /** The outcomes the user gave and capture wrote (the window's OutcomeLedger). */
  outcomes: Pick<OutcomeLedger, 'userJudgedSince' | 'recordedAutomatic'>;
  logger: Logger;
}

export function isStorageError(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EROFS' || code === 'EACCES' || code === 'EPERM' || code === 'EDQUOT';
}

export class Finalizer implements vscode.Disposable {
  private readonly queue: FinalizeJob[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private draining: Promise<void> | undefined;
  private blocked = false;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private readonly deps: FinalizerDeps) {}

  get pending(): number { return this.queue.length; }
  get isBlocked(): boolean { return this.blocked; }

  enqueue(job: FinalizeJob): void {
    if (job.tracked) {
      job.episodeId ??= job.tracked.id;
      job.lessonId ??= newId('lesson');
    }
    this.queue.push(job);
    if (this.blocked) return;
    if (this.deps.mode() === 'hotPath') { this.kick(); return; }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => { this.timer = undefined; this.kick(); }, BACKGROUND_DELAY_MS);
  }

  /** After the user resumed capture: try the queued writes again. */
  unblock(): void {
    this.blocked = false;
    if (this.queue.length) this.kick();
  }

  /** Resolves when everything queued is written, or when writing is blocked by the disk. */
  async flush(): Promise<void> {
    if (this.timer) { clearTimeout(this.timer); this.timer = undefined; }
    if (!this.blocked && this.queue.length) this.kick();
    if (this.draining) await this.draining;
    if (!this.queue.length || this.blocked) return;
    await new Promise<void>(r => this.idleWaiters.push(r));
  }

  private kick(): void {
    if (this.draining || this.blocked) return;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (this.queue.length && !this.blocked) this.kick();
      else for (const w of this.idleWaiters.splice(0)) w();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length && !this.blocked) {
      const job = this.queue[0];
      try {
        await this.process(job);
        this.queue.shift();
      } catch (e) {
        if (isStorageError(e)) {
          this.blocked = true;
          this.deps.onStorageError(e);
          return;
        }
        // A bug or a malformed episode must not wedge the queue: log it and move on.
        this.queue.shift();
        this.deps.logger.error(e instanceof Error ? e : String(e));
      }
    }
  }

  private async process(job: FinalizeJob): Promise<void> {
    const store = await this.deps.store();
    if (job.tracked && (!job.written.episode || !job.written.lesson)) {
      const { episode, lesson } = await this.build(job);
      if (!job.written.episode) {
        await store.record(episode);
        job.written.episode = true;
        this.deps.logger.info(`episode ${episode.id} recorded: ${episode.outcome}, ${episode.files.length} file(s), signature ${episode.errorSignature ?? '-'}`);
      }
      if (!job.written.lesson) {
        if (lesson) await store.record(lesson);
        job.written.lesson = true;
      }
    }
    while (job.written.feedback < job.feedback.length) {
      const f = job.feedback[job.written.feedback];
      try {
        // Only for a memory about this error, and never over the user's own verdict on this recurrence
        // (also one given after the episode ended, while this waited in the queue).
        if (appliesTo(store.get(f.id), f.signature) && !this.deps.outcomes.userJudgedSince(f.id, f.since)) {
          // The reason is our sentence around the episode's masked title (captureController's maskedTitle);
          // the store masks reasons as well.
          await store.feedback(f.id, f.outcome, { auto: true, reason: f.reason, ...(f.file ? { file: f.file } : {}) });
          this.deps.outcomes.recordedAutomatic(f.id, f.outcome, Date.now());
        }
      } catch (e) {
        if (isStorageError(e)) throw e;
        this.deps.logger.warn(`automatic feedback on ${f.id} skipped: ${e instanceof Error ? e.message : String(e)}`);
      }
      job.written.feedback++;
    }
  }

  private async build(job: FinalizeJob) {
    const t = job.tracked!;
    const before: ReadonlyMap<string, string | null> = job.before ?? new Map<string, string | null>();
    const after = new Map<string, string | null>(job.after ?? []);
    for (const file of t.files) {
      if (!before.has(file) || after.has(file)) continue;
      const now = await this.readText(job.uris?.get(file));
      if (now !== undefined) after.set(file, now);
    }
    const masked = episodeMaterial({ tracked: t, before, after, codeBefore: job.codeBefore, domain: job.domain ?? 'unknown' }, this.deps.owner(), Date.now());
    let summary: Masked | undefined;
    if (this.deps.useLanguageModel()) {
      const text = [summaryTemplate(masked), ...masked.diffs.map(d => d.diff)].join('\n\n');
      // The model's answer is outside text: it may repeat or invent a secret.
      const answer = await this.deps.summarize(text);
      if (answer) summary = maskSecrets(answer);
    }
    const memories = episodeMemories(masked, { episode: job.episodeId!, lesson: job.lessonId! }, summary);
    const lesson = memories.lesson;
    if (lesson && job.explanation) {
      // The agent that fixed it said why: that is the lesson's text (masked; the evidence stays).
      Object.assign(lesson, maskDeep(job.explanation), { author: 'agent' as const });
    } else if (lesson && !lesson.unexplained && this.deps.useLanguageModel()) {
      const evidence = modelEvidence(masked, memories.text);
      const answer = await this.deps.explain(modelLessonPrompt(evidence));
      const parsed = answer ? parseModelLesson(answer) : 'no answer';
      const problems = typeof parsed === 'string' ? [parsed] : unsupportedClaims(parsed, evidence);
      if (typeof parsed !== 'string' && !problems.length) Object.assign(lesson, maskDeep(parsed), { author: 'model' as const });
      else this.deps.logger.info(`lesson ${lesson.id}: the model's lesson was not used (${problems.join('; ')}); the template lesson stays`);
    }
    return memories;
  }

  /** Gives a queued (not yet written) episode an agent's explanation; false when it is not queued. */
  explainQueued(episodeId: string, explanation: AgentExplanation): boolean {
    const job = this.queue.find(j => j.episodeId === episodeId && !j.written.lesson);
    if (!job) return false;
    job.explanation = explanation;
    return true;
  }

  /** The file's text now; null when it is gone (the diff shows the deletion); undefined when unknown. */
  private async readText(uri: vscode.Uri | undefined): Promise<string | null | undefined> {
    if (!uri) return undefined;
    try {
      const bytes = await this.deps.readFile(uri);
      if (bytes.length > 512 * 1024) return undefined;
      return new TextDecoder().decode(bytes);
    } catch {
      return null;
    }
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}
