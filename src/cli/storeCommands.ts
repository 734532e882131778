// dist/cliStore.js: the commands that open the local store (import, recall, export, stats, show, forget,
// feedback, replay, ingest), loaded by dist/cli.js only for them, and by dist/hook.js at Stop and
// SessionEnd. The entry itself parses no store code: `engram where`, `connect`, `mcp` and `serve` never
// load this bundle, and it carries no MCP SDK, zod, ajv or server code.
import * as path from 'path';
import { mean } from '../core/trust';
import type { FeedbackOutcome } from '../core/types';
import type { Embedder } from '../store/embedder';
import type { StoreLocation } from '../store/location';
import { MemoryStore, owedCompactions } from '../store/memoryStore';
import { windowEmbedder } from '../store/transformersEmbedder';
import { readableReplay, replayLines, replayTrace } from '../cliReplay';
import { need, str, UsageError, type Args, type Io } from './args';
import { pct, round } from './format';
import { runImport } from './importCommand';
import { runRecall } from './recallCommand';
import { runExport, runShow, runStats } from './showCommands';

/** The commands this bundle runs. */
export const STORE_COMMANDS = ['import', 'recall', 'export', 'stats', 'show', 'forget', 'feedback', 'replay', 'ingest'] as const;

export async function runStoreCommand(cmd: string, rest: string[], args: Args, io: Io, location: StoreLocation): Promise<number> {
  const json = args.flags.has('json');
  const dir = location.dir;
  // Reading commands never create a store where there is none; writing ones may.
  const reading = cmd === 'recall' || cmd === 'export' || cmd === 'stats' || cmd === 'show';
  let store: MemoryStore | undefined;
  let embedder: Embedder | undefined;
  try {
    const workspaceId = str(args, 'workspace');
    // A reading command that finds forgotten text still owed a compaction opens for writing and pays it.
    // Commands that embed use the model the window loaded, when it published one (the same vectors).
    const embeds = cmd === 'recall' || cmd === 'import' || cmd === 'ingest' || cmd === 'replay';
    const model = embeds && location.model ? await windowEmbedder(location.model, path.join(__dirname, 'embedWorker.js')) : undefined;
    if (model && !model.embedder) io.err(`engram: ${model.note}\n`);
    embedder = model?.embedder;
    store = await MemoryStore.open(path.resolve(dir), { workspaceId, readOnly: reading && owedCompactions(dir) === 0, ...(embedder ? { embedder } : {}) });
    switch (cmd) {
      case 'import': return await runImport(store, rest, args, io);
      case 'recall': return await runRecall(store, rest, args, io, json, location);
      case 'export': return runExport(store, args, io);
      case 'stats': return runStats(store, io, json);
      case 'show': return runShow(store, rest, io, json);
      case 'replay': {
        const file = need(rest[0], 'replay needs a trace file (JSON lines)');
        const report = await replayTrace(store, file, { scope: 'workspace', workspace: str(args, 'workspace') ?? 'replay', agent: 'user' });
        io.out(json ? JSON.stringify(report) + '\n' : readableReplay(report));
        return 0;
      }
      case 'ingest': {
        const lines: string[] = [];
        for await (const l of io.stdin()) lines.push(l);
        const report = await replayLines(store, lines, { scope: 'workspace', workspace: workspaceId ?? path.basename(location.folder), agent: 'agent' });
        io.out(json ? JSON.stringify(report) + '\n' : readableReplay(report));
        return 0;
      }
      case 'forget': {
        const id = need(rest[0], 'forget needs a memory id');
        await store.forget(id, str(args, 'reason') ?? 'forgotten from the command line');
        io.out(json ? JSON.stringify({ forgotten: id }) + '\n' : `forgot ${id}\n`);
        return 0;
      }
      case 'feedback': {
        const id = need(rest[0], 'feedback needs a memory id');
        const outcome = rest[1];
        if (outcome !== 'prevented' && outcome !== 'still_failed') throw new UsageError('feedback needs "prevented" or "still_failed"');
        const before = store.get(id)?.maturity;
        await store.feedback(id, outcome as FeedbackOutcome, { reason: str(args, 'reason') });
        const m = store.get(id);
        const out = { id, outcome, maturity: m?.maturity, previousMaturity: before, confidence: m ? round(mean(m.confidence)) : undefined };
        io.out(json ? JSON.stringify(out) + '\n' : `${id}: ${outcome}; ${m?.maturity}${before !== m?.maturity ? ` (was ${before})` : ''}, confidence ${pct(out.confidence ?? 0)}\n`);
        return 0;
      }
    }
    return 2;
  } catch (e) {
    if (e instanceof UsageError) { io.err(`engram: ${e.message}\n`); return 2; }
    io.err(`engram: ${(e as Error).message}\n`);
    return 1;
  } finally {
    await store?.close().catch(() => undefined);
    await embedder?.dispose();
  }
}

// What dist/hook.js loads from this bundle at Stop and SessionEnd (src/hookMain.ts, src/cliHook.ts).
export { MemoryStore, replayLines };
