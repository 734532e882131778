// The texts a capture session knows and, per open episode, the text each file had when it first mattered
// to it (at the episode's start, when the file opened, or just before it changed), so the episode's fix
// can be shown as a diff. Replay learns every text from its trace's events; live capture reads open
// documents through the session's host (a change event carries no text there: reading a document on
// every keystroke would cost the editor), so both keep the same baselines by the same rules.
export interface TextSource {
  /** A file's current text as the editor has it; undefined when it is not open (the finaliser reads the disk). */
  text(file: string): string | undefined;
}

const MAX_BASELINE_FILES = 25;
const MAX_BASELINE_CHARS = 256 * 1024;

export class Baselines {
  /** What the events said a file holds; null = known not to exist. Wins over the host. */
  private readonly known = new Map<string, string | null>();
  private readonly byEpisode = new Map<string, { texts: Map<string, string | null>; tried: Set<string> }>();

  constructor(private readonly host?: TextSource) {}

  /** Current text: what an event said, else the host's open document; undefined = unknown. */
  text(file: string): string | null | undefined {
    return this.known.has(file) ? this.known.get(file)! : this.host?.text(file);
  }

  has(file: string): boolean {
    return this.text(file) !== undefined;
  }

  /** An event said what the file holds (null: it does not exist); undefined: the host knows better now. */
  set(file: string, text: string | null | undefined): void {
    if (text === undefined) this.known.delete(file); else this.known.set(file, text);
  }

  /** A new episode: the files known now (the open ones) are its baselines. */
  begin(episodeId: string, files: Iterable<string>): void {
    const entry = { texts: new Map<string, string | null>(), tried: new Set<string>() };
    this.byEpisode.set(episodeId, entry);
    for (const f of files) this.add(entry, f);
  }

  /** Before `file` changes (or when it opens): every open episode that has not seen it keeps its text now. */
  note(file: string): void {
    for (const entry of this.byEpisode.values()) this.add(entry, file);
  }

  /** Removes the episode's baselines; `before` for `files`, and `after`: their texts now where known. */
  end(episodeId: string, files: readonly string[]): { before: Map<string, string | null>; after: Map<string, string | null> } {
    const entry = this.byEpisode.get(episodeId);
    this.byEpisode.delete(episodeId);
    const before = new Map<string, string | null>();
    const after = new Map<string, string | null>();
    for (const f of files) {
      if (entry?.texts.has(f)) before.set(f, entry.texts.get(f)!);
      const now = this.text(f);
      if (now !== undefined) after.set(f, now);
    }
    return { before, after };
  }

  private add(entry: { texts: Map<string, string | null>; tried: Set<string> }, file: string): void {
    // `tried`: a file too large for a baseline is not read again on every keystroke.
    if (entry.texts.has(file) || entry.tried.has(file) || entry.texts.size >= MAX_BASELINE_FILES) return;
    const text = this.text(file);
    if (text === undefined) return;
    if (text !== null && text.length > MAX_BASELINE_CHARS) { entry.tried.add(file); return; }
    entry.texts.set(file, text);
  }
}
