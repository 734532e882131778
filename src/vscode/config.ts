// One typed view of `engram.*` settings. Read on demand (cheap), react with `affects`.
import * as vscode from 'vscode';

export interface EngramConfig {
  capture: {
    enabled: boolean; diagnostics: boolean; terminal: boolean; editors: boolean;
    noiseThresholdMs: number; idleGapMinutes: number; exclude: string[]; maxTerminalOutputBytes: number;
  };
  updateMode: 'background' | 'hotPath';
  summarize: { useLanguageModel: boolean };
  recall: { maxResults: number; proactive: boolean; includePersonal: boolean; includeTeam: boolean };
  hover: { enabled: boolean };
  retention: { ttlDays: number };
  cleanup: { minAgeDays: number; minAccesses: number; minImportance: number };
  embedding: { enabled: boolean; model: string; localModelPath: string; allowDownload: boolean };
  instructions: { enabled: boolean };
  constraints: { enabled: boolean };
  stale: { symbolBudgetMs: number };
  /** server: the team server's URL, '' when team memories come from the file. */
  team: { file: string; server: string };
  mcp: { inVsCode: boolean };
}

const DEFAULT_EXCLUDE = ['**/.env*', '**/secrets/**', '**/node_modules/**', '**/*.pem', '**/*.key'];

function num(v: unknown, fallback: number, min: number, max: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;
}
function bool(v: unknown, fallback: boolean): boolean { return typeof v === 'boolean' ? v : fallback; }
function str(v: unknown, fallback: string): string { return typeof v === 'string' ? v : fallback; }
function strArr(v: unknown, fallback: string[]): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : fallback;
}

/** Settings parsed into types at the edge, so a hand-edited settings.json never reaches core as garbage. */
export function readConfig(scope?: vscode.ConfigurationScope | null): EngramConfig {
  // Window- and machine-scoped settings are read without a resource (with one, the host logs "Accessing a
  // window scoped configuration for a resource" for each); the one resource-scoped setting (exclude) is
  // read for the given resource, else the first folder, which is what a single-root workspace means.
  const c = vscode.workspace.getConfiguration('engram');
  const r = vscode.workspace.getConfiguration('engram', scope ?? vscode.workspace.workspaceFolders?.[0]?.uri ?? null);
  return {
    capture: {
      enabled: bool(c.get('capture.enabled'), true),
      diagnostics: bool(c.get('capture.diagnostics'), true),
      terminal: bool(c.get('capture.terminal'), true),
      editors: bool(c.get('capture.editors'), true),
      noiseThresholdMs: num(c.get('capture.noiseThresholdMs'), 4000, 0, 600_000),
      idleGapMinutes: num(c.get('capture.idleGapMinutes'), 30, 1, 1440),
      exclude: strArr(r.get('capture.exclude'), DEFAULT_EXCLUDE),
      maxTerminalOutputBytes: num(c.get('capture.maxTerminalOutputBytes'), 1_048_576, 4096, 64 * 1_048_576),
    },
    updateMode: c.get('updateMode') === 'hotPath' ? 'hotPath' : 'background',
    summarize: { useLanguageModel: bool(c.get('summarize.useLanguageModel'), false) },
    recall: {
      maxResults: num(c.get('recall.maxResults'), 5, 1, 50),
      proactive: bool(c.get('recall.proactive'), true),
      includePersonal: bool(c.get('recall.includePersonal'), false),
      includeTeam: bool(c.get('recall.includeTeam'), true),
    },
    hover: { enabled: bool(c.get('hover.enabled'), true) },
    retention: { ttlDays: num(c.get('retention.ttlDays'), 365, 0, 100_000) },
    cleanup: {
      minAgeDays: num(c.get('cleanup.minAgeDays'), 90, 1, 100_000),
      minAccesses: num(c.get('cleanup.minAccesses'), 2, 0, 1_000_000),
      minImportance: num(c.get('cleanup.minImportance'), 0.3, 0, 1),
    },
    embedding: {
      enabled: bool(c.get('embedding.enabled'), true),
      model: str(c.get('embedding.model'), 'Xenova/paraphrase-multilingual-MiniLM-L12-v2'),
      localModelPath: str(c.get('embedding.localModelPath'), ''),
      allowDownload: bool(c.get('embedding.allowDownload'), false),
    },
    instructions: { enabled: bool(c.get('instructions.enabled'), false) },
    constraints: { enabled: bool(c.get('constraints.enabled'), true) },
    stale: { symbolBudgetMs: num(c.get('stale.symbolBudgetMs'), 300, 0, 5000) },
    team: { file: str(c.get('team.file'), '.engram/team.jsonl'), server: str(c.get('team.server'), '').trim() },
    mcp: { inVsCode: bool(c.get('mcp.inVsCode'), false) },
  };
}

/** Subscribe to changes of `engram.<section>` (or any engram setting when no section is given). */
export function onConfigChange(section: string | undefined, fn: () => void): vscode.Disposable {
  const key = section ? `engram.${section}` : 'engram';
  return vscode.workspace.onDidChangeConfiguration(e => { if (e.affectsConfiguration(key)) fn(); });
}
