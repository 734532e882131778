// The capture session's view of the editor (core/capture/capturePipeline.ts SessionHost): the open
// documents by workspace-relative path, their text (one copy per version, shared by every episode that
// takes it as a baseline) and language. Read only when the session asks, never per keystroke.
import type * as vscode from 'vscode';

export class DocumentTexts {
  private readonly docs = new Map<string, vscode.TextDocument>();
  private readonly texts = new Map<string, { version: number; text: string }>();

  opened(file: string, doc: vscode.TextDocument): void {
    this.docs.set(file, doc);
  }

  closed(file: string): void {
    this.docs.delete(file);
    this.texts.delete(file);
  }

  /** Forgets every document (workspace folders changed: the paths mean something else now). */
  clear(): void {
    this.docs.clear();
    this.texts.clear();
  }

  text(file: string): string | undefined {
    const doc = this.docs.get(file);
    if (!doc || doc.isClosed) return undefined;
    let cached = this.texts.get(file);
    if (!cached || cached.version !== doc.version) this.texts.set(file, cached = { version: doc.version, text: doc.getText() });
    return cached.text;
  }

  languageId(file: string): string | undefined {
    const doc = this.docs.get(file);
    return doc && !doc.isClosed ? doc.languageId : undefined;
  }
}
