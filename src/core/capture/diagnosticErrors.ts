// Editor diagnostics → ErrorInfo for the tracker: a fingerprint per file so only a changed set costs
// anything, and signatures cached per message. Shared by live capture (vscode/capture/diagnostics.ts)
// and replay, so both turn the same diagnostics into the same errors.
import type { ErrorInfo } from '../episodeTracker';
import { normaliseSignature, signatureOf } from '../signature';

/** The parts of a vscode.Diagnostic the bookkeeping needs (plain data, so the benchmark can drive it). */
export interface RawDiagnostic {
  severity: number; // vscode.DiagnosticSeverity: 0 = Error
  message: string;
  source?: string;
  code?: string | number | { value: string | number };
  line: number;
}

const ERROR = 0;
const MAX_ERRORS_PER_FILE = 50;
const SIGNATURE_CACHE = 2000;

function isTs(source: string | undefined): boolean {
  const s = (source ?? '').toLowerCase();
  return s === 'ts' || s === 'typescript' || s === 'js';
}

/**
 * The tool a diagnostic source stands for, so an editor diagnostic and the same error printed by a
 * terminal build share a signature (rust-analyzer reports rustc's errors as source "rustc").
 */
const TOOL_OF_SOURCE: Record<string, string> = {
  'rustc': 'rustc', 'rust-analyzer': 'rustc', 'pylance': 'pyright', 'pyright': 'pyright', 'basedpyright': 'pyright',
  'eslint': 'eslint', 'mypy': 'mypy', 'pylint': 'pylint', 'ruff': 'ruff', 'flake8': 'flake8', 'gcc': 'gcc', 'clang': 'gcc',
  'clangd': 'gcc', 'c/c++': 'gcc', 'compiler': 'go', 'go': 'go', 'java': 'javac', 'javac': 'javac', 'stylelint': 'stylelint',
  'deno-ts': 'tsc', 'vue': 'vue', 'svelte': 'svelte', 'shellcheck': 'shellcheck',
};

function codeOf(d: RawDiagnostic): string | undefined {
  const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
  return code === undefined || code === '' ? undefined : String(code);
}

/** tsc-like text ("error TS2322: …") so the code survives into the signature, as the hover does. */
export function diagnosticLine(d: RawDiagnostic): string {
  const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
  const source = (d.source ?? '').toLowerCase();
  if (code !== undefined && isTs(source)) return `error TS${code}: ${d.message}`;
  return code !== undefined ? `${d.source ?? 'error'} ${code}: ${d.message}` : d.message;
}

export class DiagnosticsBook {
  private readonly fingerprints = new Map<string, string>();
  private readonly signatures = new Map<string, Omit<ErrorInfo, 'line'>>();

  /**
   * The file's error set when it changed since the last call, else undefined (nothing to do).
   * Cost: one pass over the file's diagnostics; signatures only for messages never seen before.
   */
  update(file: string, diagnostics: readonly RawDiagnostic[]): ErrorInfo[] | undefined {
    let fp = '';
    let count = 0;
    for (const d of diagnostics) {
      if (d.severity !== ERROR) continue;
      if (++count > MAX_ERRORS_PER_FILE) break;
      const code = typeof d.code === 'object' && d.code !== null ? d.code.value : d.code;
      fp += `${d.source ?? ''}\u0001${code ?? ''}\u0001${d.message}\u0002`;
    }
    const prev = this.fingerprints.get(file);
    if (prev === fp || (prev === undefined && fp === '')) return undefined;
    if (fp === '') this.fingerprints.delete(file); else this.fingerprints.set(file, fp);

    const out: ErrorInfo[] = [];
    count = 0;
    for (const d of diagnostics) {
      if (d.severity !== ERROR) continue;
      if (++count > MAX_ERRORS_PER_FILE) break;
      out.push({ ...this.signature(d), line: d.line });
    }
    return out;
  }

  /** The file's set is unknown (an episode restored after a reload): the next set, even empty, counts. */
  markUnknown(file: string): void {
    this.fingerprints.set(file, '\u0000unknown');
  }

  forget(file: string): void {
    this.fingerprints.delete(file);
  }

  private signature(d: RawDiagnostic): Omit<ErrorInfo, 'line'> {
    const text = diagnosticLine(d);
    let info = this.signatures.get(text);
    if (!info) {
      // TS diagnostics already say their tool and code: normalising the message alone gives the same
      // key as signatureOf("error TS…: …") (what the hover uses) at a fraction of the cost.
      // Every source keeps its code (ESLint rule ids, rustc E-codes, pyright rules), not only TypeScript.
      const code = codeOf(d);
      const source = (d.source ?? '').toLowerCase();
      const sig = isTs(d.source) && code !== undefined
        ? normaliseSignature(d.message, 'tsc', `TS${code}`)
        : code !== undefined
          ? normaliseSignature(d.message, TOOL_OF_SOURCE[source] ?? (source || undefined), code)
          : signatureOf(text) ?? normaliseSignature(d.message, TOOL_OF_SOURCE[source] ?? (source || undefined));
      info = { key: sig.key, family: sig.family, message: d.message, code: sig.code, tool: sig.tool };
      if (this.signatures.size >= SIGNATURE_CACHE) this.signatures.clear();
      this.signatures.set(text, info);
    }
    return info;
  }
}

