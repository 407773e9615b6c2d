/**
 * `cairn doctor` and the Status page: each check says ok / warn / fail, what it saw, and
 * how to fix it. Native pieces (better-sqlite3 + FTS5, sqlite-vec, node-llama-cpp) are
 * loaded for real; nothing here writes to the state dir.
 */
import fs from 'node:fs';
import type { DoctorCheck } from '../../../shared/contract';
import type { EngineContext } from '../core/context';
import { embedderDoctorCheck } from '../embed/handlers';
import { llmDoctorCheck } from '../llm/handlers';
import { openclawConnectionCheck } from '../openclaw/doctor';
import { qmdDoctorCheck } from '../qmd/doctor';
import { passedCheck } from '../core/passed-checks';
import { workspaceCheck } from '../config/workspace';
import { sessionStoresCheck } from '../sessions/store/doctor';
import { acquireLlamaRuntime } from '../util/llama-runtime';

/** A domain's own checks (embedder, LLM, QMD): each domain exports its check, and doctor — the floor above them all — calls them in this order. */
type DoctorContributor = (ctx: EngineContext) => Promise<DoctorCheck[]> | DoctorCheck[];

const contributors: DoctorContributor[] = [
  async (ctx) => [await embedderDoctorCheck(ctx)],
  (ctx) => [llmDoctorCheck(ctx)],
  async (ctx) => {
    const c = await qmdDoctorCheck(ctx);
    return c ? [c] : [];
  },
  (ctx) => [openclawConnectionCheck(ctx)].filter((c): c is DoctorCheck => c !== null),
];

async function check(id: string, label: string, fn: () => Promise<Omit<DoctorCheck, 'id' | 'label'>> | Omit<DoctorCheck, 'id' | 'label'>): Promise<DoctorCheck> {
  try {
    return { id, label, ...(await fn()) };
  } catch (err) {
    return { id, label, status: 'fail', detail: (err as Error).message };
  }
}

export async function sqliteCheck(): Promise<Omit<DoctorCheck, 'id' | 'label'>> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(':memory:');
  try {
    const version = (db.prepare('select sqlite_version() as v').get() as { v: string }).v;
    db.exec("create virtual table t using fts5(x, tokenize='unicode61'); create virtual table t3 using fts5(x, tokenize='trigram');");
    return { status: 'ok', detail: `SQLite ${version}, FTS5 (unicode61 + trigram)` };
  } catch (err) {
    return { status: 'fail', detail: (err as Error).message, hint: 'Reinstall: npm rebuild better-sqlite3 (needs python3, make and a C++ compiler).' };
  } finally {
    db.close();
  }
}

export async function sqliteVecCheck(): Promise<Omit<DoctorCheck, 'id' | 'label'>> {
  const { default: Database } = await import('better-sqlite3');
  const sqliteVec = await import('sqlite-vec');
  const db = new Database(':memory:');
  try {
    sqliteVec.load(db);
    const v = (db.prepare('select vec_version() as v').get() as { v: string }).v;
    return { status: 'ok', detail: `sqlite-vec ${v}` };
  } catch (err) {
    return {
      status: 'warn',
      detail: `sqlite-vec did not load: ${(err as Error).message}`,
      hint: 'Vector search falls back to an in-process cosine scan (slower). Reinstall the sqlite-vec package for your platform.',
    };
  } finally {
    db.close();
  }
}

/**
 * Whether node-llama-cpp loads. A pass is kept for the engine's life (loading it again costs
 * seconds); a failure is not, so a repaired install is seen at the next check.
 */
export function nodeLlamaCheck(ctx: EngineContext): Promise<Omit<DoctorCheck, 'id' | 'label'>> {
  return passedCheck(ctx, 'node-llama-cpp', Number.POSITIVE_INFINITY, probeNodeLlama, (r) => r.status === 'ok');
}

function probeNodeLlama(): Promise<Omit<DoctorCheck, 'id' | 'label'>> {
  return (async () => {
    // The shared runtime: no second llama.cpp when a local embedder or chat model already holds it.
    const { llama, release } = await acquireLlamaRuntime();
    try {
      const info = `node-llama-cpp loaded (llama.cpp ${llama.llamaCppRelease.release}, ${llama.gpu === false ? 'CPU' : llama.gpu})`;
      return { status: 'ok' as const, detail: info };
    } finally {
      await release();
    }
  })().catch((err: Error) => ({
    status: 'fail' as const,
    detail: `node-llama-cpp did not load: ${err.message}`,
    hint: 'Local GGUF models are unavailable. Reinstall node-llama-cpp (npm ci) or use a remote provider.',
  }));
}

/**
 * Run every check (concurrently) and return them in a fixed order. `onCheck` hears of each
 * as it completes, so the Status page shows results one by one instead of "Checking…" until
 * the slowest (node-llama-cpp, the embedder) is done.
 */
export async function runDoctor(ctx: EngineContext, opts: { native?: boolean; onCheck?: (check: DoctorCheck) => void } = {}): Promise<DoctorCheck[]> {
  const native = opts.native ?? true;
  const tell = <T extends DoctorCheck | DoctorCheck[]>(p: Promise<T>): Promise<T> =>
    p.then((c) => {
      for (const one of Array.isArray(c) ? c : [c]) opts.onCheck?.(one);
      return c;
    });
  const checks: Promise<DoctorCheck>[] = [
    check('state-dir', 'State directory', () => {
      const s = ctx.state();
      if (!fs.existsSync(s.stateDir)) return { status: 'fail', detail: `${s.stateDir} does not exist`, hint: 'Run cairn once to create it, or pass --state-dir.' };
      return s.writable
        ? { status: 'ok', detail: `${s.stateDir} (writable)` }
        : { status: 'warn', detail: `${s.stateDir} (read-only: not created by Cairn)\nCairn's own files for it: ${s.cairnDir}`, hint: 'Turn writing on in Settings → State directory, or with cairn config.' };
    }),
    check('config', 'Config', () => {
      const { warnings, files, notes = [] } = ctx.config();
      const where = files.length ? files.join(', ') : 'no config file (defaults)';
      // Older key names are read, not errors: named, with who moves them (config/legacy-keys.ts).
      const older = notes.map((n) => n.message).join('\n');
      const olderHint = 'Cairn writes cairn.json at today\'s names on its next settings change; `openclaw doctor --fix` moves them in openclaw.json.';
      if (warnings.length === 0) return { status: 'ok', detail: `valid: ${where}${older ? `\n${older}` : ''}`, ...(older ? { hint: olderHint } : {}) };
      return {
        status: 'warn',
        detail: warnings.map((w) => w.message).join('\n'),
        hint: 'Fix the named keys in cairn.json; until then those keys use their defaults.',
      };
    }),
    check('session-stores', 'Session stores', () => sessionStoresCheck(ctx)),
    check('workspace', 'Workspaces', () => workspaceCheck(ctx.agents(), (id) => ctx.paths(id).workspaceWarning)),
  ];
  if (native) {
    checks.push(check('sqlite', 'better-sqlite3 + FTS5', sqliteCheck));
    checks.push(check('sqlite-vec', 'sqlite-vec', sqliteVecCheck));
    checks.push(check('node-llama-cpp', 'node-llama-cpp', () => nodeLlamaCheck(ctx)));
  }
  const extraP = Promise.all(
    contributors.map((c) =>
      tell(
        (async () => {
          try {
            return await c(ctx);
          } catch (err) {
            return [{ id: 'contributor', label: 'check', status: 'fail' as const, detail: (err as Error).message }];
          }
        })(),
      ),
    ),
  );
  const base = await Promise.all(checks.map(tell));
  const extra = await extraP;
  return [...base, ...extra.flat()];
}
