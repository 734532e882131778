// Shared by the integration tests: reach the running extension's parts (through the test-only access
// activate() returns outside Production mode), seed memories, create files with real TypeScript errors
// at run time.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { EngramApi, EngramTestAccess } from '../../src/vscode/api';
import type { Lesson, Memory, Rule } from '../../src/core/types';
import { newLesson, newRule } from '../../src/core/newMemory';
import { testAccess } from './testAccess';
import { waitFor } from './waitFor';

export const EXTENSION_ID = 'engram-dev.engram';

/** The API other extensions get (activates the extension). */
export async function engramApi(): Promise<EngramApi> {
  const ext = vscode.extensions.getExtension<EngramApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed`);
  return ext.activate();
}

/** The running parts the tests drive: present because the tests run the extension in Test mode. */
export async function engram(): Promise<EngramTestAccess> {
  return testAccess(await engramApi());
}

export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the tests need a workspace folder');
  return folder.uri;
}

/** A short unique token, so a test finds its own memories among everything else in the shared store. */
export function token(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
}

export { waitFor };

export async function writeFile(rel: string, content: string): Promise<vscode.Uri> {
  const uri = vscode.Uri.joinPath(workspaceRoot(), rel);
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(uri, '..'));
  await vscode.workspace.fs.writeFile(uri, Buffer.from(content, 'utf8'));
  return uri;
}

/** Opens a file and waits until the TypeScript server reports an error diagnostic on it. */
export async function openWithError(rel: string, content: string, code?: number): Promise<{ uri: vscode.Uri; editor: vscode.TextEditor; diagnostic: vscode.Diagnostic }> {
  const uri = await writeFile(rel, content);
  const doc = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  const diagnostic = await waitFor(`a TypeScript error in ${rel}`, () => vscode.languages.getDiagnostics(uri).find(d =>
    d.severity === vscode.DiagnosticSeverity.Error && (code === undefined || (typeof d.code === 'object' ? d.code.value : d.code) === code)), 90_000);
  return { uri, editor, diagnostic };
}

export async function seedLesson(api: EngramTestAccess, input: { errorText: string; rootCause: string; fixApproach: string; scope?: string[] }, over: Partial<Lesson> = {}): Promise<Lesson> {
  const store = await api.services.store();
  const lesson = { ...newLesson({ workspace: api.services.workspaceId, source: 'manual', agent: 'user' }, input), ...over } as Lesson;
  const saved = await store.record(lesson);
  assert.strictEqual(saved.kind, 'lesson');
  return saved as Lesson;
}

export async function seedRule(api: EngramTestAccess, instruction: string, over: Partial<Rule> = {}): Promise<Memory> {
  const store = await api.services.store();
  return store.record({ ...newRule({ workspace: api.services.workspaceId, source: 'manual', agent: 'user' }, { instruction }), ...over } as Rule);
}

/** Text of the hovers' markdown (strings and MarkdownStrings alike). */
export function hoverTexts(hovers: vscode.Hover[] | undefined): string[] {
  return (hovers ?? []).flatMap(h => h.contents.map(c => typeof c === 'string' ? c : 'value' in c ? c.value : ''));
}
