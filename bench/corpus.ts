/**
 * Synthetic but realistic memory corpora for the search benchmarks, as Cairn state dirs:
 * `workspace/MEMORY.md`, daily notes `workspace/memory/YYYY-MM-DD.md` across many months,
 * evergreen notes `workspace/memory/notes/*.md`, and OpenClaw/pi session transcripts
 * (`agents/main/sessions/*.jsonl`, format v3, with tool calls and results) — at about 1k,
 * 10k, 100k and (asked by name) 1M chunks. Deterministic from a seed; written once into bench/.data/ (git-
 * ignored) and reused while the manifest (version + seed) matches.
 *
 * Chunk counts are estimated from the chunker's sizes (1,600-char chunks, 320 overlap); the
 * benchmark reports the real count from the index. Run directly to (re)generate and print
 * a table: `node --import tsx bench/corpus.ts [1k 10k 100k 1m]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { assistantTurn, hex, int, pick, rng, section, setVocabulary, TOPICS, userTurn, type Rand } from './lib/corpus-text';

export const CORPUS_VERSION = 4;
export const CORPUS_SEED = 20261127;
/** "Today" of the corpora: the newest daily note. */
export const CORPUS_NOW = new Date('2026-11-27T18:00:00Z');

export type CorpusSize = '1k' | '10k' | '100k' | '1m';
/** The sizes the benches run by default; `1m` (1.8 GB of files) only when asked by name. */
export const CORPUS_SIZES: readonly CorpusSize[] = ['1k', '10k', '100k'];
/** Every size, `1m` included: what `bench/search.ts` runs by default (its 1M row). */
export const ALL_CORPUS_SIZES: readonly CorpusSize[] = [...CORPUS_SIZES, '1m'];

interface Plan {
  chunks: number;
  /** Days of daily notes, ending at CORPUS_NOW. */
  days: number;
  evergreen: number;
  /** Share of the chunks in daily notes, evergreen notes; the rest is transcripts. */
  dailyShare: number;
  evergreenShare: number;
}

const PLANS: Record<CorpusSize, Plan> = {
  '1k': { chunks: 1_000, days: 240, evergreen: 12, dailyShare: 0.4, evergreenShare: 0.1 },
  '10k': { chunks: 10_000, days: 730, evergreen: 100, dailyShare: 0.35, evergreenShare: 0.1 },
  '100k': { chunks: 100_000, days: 1_825, evergreen: 800, dailyShare: 0.3, evergreenShare: 0.1 },
  '1m': { chunks: 1_000_000, days: 3_650, evergreen: 4_000, dailyShare: 0.3, evergreenShare: 0.1 },
};

export interface CorpusManifest {
  version: number;
  seed: number;
  size: CorpusSize;
  files: { daily: number; evergreen: number; sessions: number; total: number };
  bytes: number;
  estimatedChunks: number;
  generatedMs: number;
}

export interface Corpus {
  /** The state dir (pass as --state-dir). */
  dir: string;
  workspace: string;
  sessionsDir: string;
  manifest: CorpusManifest;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const DATA_DIR = path.join(here, '.data');

/** Chunks the chunker makes of `chars` of text (1,600-char chunks advancing ~1,280). */
export function estimateChunks(chars: number): number {
  // Whole lines rarely fill a chunk exactly and the overlap carries whole lines: measured
  // advance ≈ 1,000 chars per chunk on these corpora.
  return chars <= 1_600 ? 1 : 1 + Math.ceil((chars - 1_600) / 1_000);
}

/**
 * 30,000 frequent lowercase words by rank (bench/corpus-words.txt: the GloVe vocabulary's,
 * skipping the top 100, written out when that package was dropped, so the corpora stay the same).
 */
async function loadVocabulary(): Promise<string[]> {
  return fs.readFileSync(path.join(here, 'corpus-words.txt'), 'utf8').split('\n').filter(Boolean);
}

function ymd(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Markdown of `chars` characters or a little more, in topic sections. */
function markdownBody(r: Rand, title: string, chars: number): string {
  const parts = [`# ${title}`, ''];
  let n = title.length + 3;
  while (n < chars) {
    const s = section(r, int(r, 3, 9));
    parts.push(s);
    n += s.length + 1;
  }
  return parts.join('\n');
}

const MEMORY_MD_HEAD = `# Long-term memory

## About the user
- Name: Robin. Works on Cairn, an offline workbench for assistant memory.
- Prefers short answers with the exact command to run.
- Time zone: Europe/Berlin. Writes notes in English, sometimes in Chinese and Japanese.

## Standing decisions
- The state dir is plain files: Markdown for memory, JSONL for sessions, SQLite for the index only.
- Dev server on port 5173; API proxy on 8787.
`;

/** One transcript of about `chunks` chunks of user/assistant text, as OpenClaw writes it. */
function transcript(r: Rand, id: string, start: Date, chunks: number): { text: string; chars: number } {
  const lines: string[] = [];
  let t = start.getTime();
  const stamp = () => new Date((t += int(r, 5, 240) * 1000)).toISOString();
  lines.push(JSON.stringify({ type: 'session', version: 3, id, timestamp: new Date(t).toISOString(), cwd: '/home/robin/cairn' }));
  let parent: string | null = null;
  const entry = (o: Record<string, unknown>) => {
    const eid = hex(r, 8);
    lines.push(JSON.stringify({ type: 'message', id: eid, parentId: parent, timestamp: stamp(), ...o }));
    parent = eid;
  };
  const target = chunks * 1_000 + 600;
  let chars = 0;
  while (chars < target) {
    const u = userTurn(r);
    entry({ message: { role: 'user', content: u, timestamp: t } });
    chars += u.length + 7;
    if (r() < 0.25) {
      // A tool round trip: not indexed (only user/assistant text is), but real transcripts have them.
      const callId = `toolu_${hex(r, 12)}`;
      entry({
        message: {
          role: 'assistant',
          content: [{ type: 'toolCall', id: callId, name: 'memory_search', arguments: { query: pick(r, TOPICS) } }],
          provider: 'anthropic',
          model: 'claude-sonnet-4-5',
          usage: { input: int(r, 2000, 90000), output: int(r, 20, 200), cacheRead: 0, cacheWrite: 0, totalTokens: 0 },
          stopReason: 'toolUse',
          timestamp: t,
        },
      });
      entry({ message: { role: 'toolResult', toolCallId: callId, toolName: 'memory_search', content: [{ type: 'text', text: `{"results":[{"path":"memory/${ymd(new Date(t))}.md","score":0.${int(r, 40, 99)}}]}` }], isError: false, timestamp: t } });
    }
    const a = assistantTurn(r);
    entry({
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: a }],
        provider: 'anthropic',
        model: 'claude-sonnet-4-5',
        usage: { input: int(r, 2000, 90000), output: Math.round(a.length / 4), cacheRead: 0, cacheWrite: 0, totalTokens: 0 },
        stopReason: 'stop',
        timestamp: t,
      },
    });
    chars += a.length + 12;
  }
  return { text: `${lines.join('\n')}\n`, chars };
}

function generate(size: CorpusSize, dir: string): CorpusManifest {
  const started = performance.now();
  const plan = PLANS[size];
  const r = rng(CORPUS_SEED ^ plan.chunks);
  const ws = path.join(dir, 'workspace');
  const mem = path.join(ws, 'memory');
  const notes = path.join(mem, 'notes');
  const sessions = path.join(dir, 'agents', 'main', 'sessions');
  for (const d of [mem, notes, sessions, path.join(dir, 'cairn')]) fs.mkdirSync(d, { recursive: true });
  let bytes = 0;
  let est = 0;
  const write = (file: string, text: string) => {
    fs.writeFileSync(file, text);
    bytes += Buffer.byteLength(text);
  };

  // MEMORY.md: a curated head plus a few sections of durable facts.
  const memoryMd = `${MEMORY_MD_HEAD}\n${markdownBody(r, 'Durable notes', Math.min(12_000, plan.chunks * 2)).replace(/^# .*\n/, '')}`;
  write(path.join(ws, 'MEMORY.md'), memoryMd);
  est += estimateChunks(memoryMd.length);

  // Daily notes: lengths vary a lot (a quiet Sunday vs. a release day), averaging the plan.
  const dailyAvg = ((plan.chunks * plan.dailyShare) / plan.days) * 1_000;
  for (let i = plan.days - 1; i >= 0; i--) {
    const day = ymd(new Date(CORPUS_NOW.getTime() - i * 86_400_000));
    const chars = Math.max(200, Math.round(dailyAvg * (0.3 + 1.4 * r())));
    const text = markdownBody(r, day, chars);
    write(path.join(mem, `${day}.md`), text);
    est += estimateChunks(text.length);
  }

  // Evergreen notes: project pages, how-tos, lists.
  const evAvg = ((plan.chunks * plan.evergreenShare) / plan.evergreen) * 1_000;
  for (let i = 0; i < plan.evergreen; i++) {
    const topic = pick(r, TOPICS);
    const text = markdownBody(r, `${topic} (${i})`, Math.max(300, Math.round(evAvg * (0.4 + 1.2 * r()))));
    write(path.join(notes, `${topic.replace(/\s+/g, '-')}-${i}.md`), text);
    est += estimateChunks(text.length);
  }

  // Transcripts fill the rest, one session every few days, newest last.
  let left = plan.chunks - est;
  let n = 0;
  const index: Record<string, unknown> = {};
  while (left > 0) {
    const chunks = Math.min(left, int(r, 20, 100));
    const id = `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-a${hex(r, 3)}-${hex(r, 12)}`;
    const start = new Date(CORPUS_NOW.getTime() - Math.floor(r() * plan.days) * 86_400_000 - int(r, 1, 20) * 3_600_000);
    const { text, chars } = transcript(r, id, start, chunks);
    write(path.join(sessions, `${id}.jsonl`), text);
    const got = estimateChunks(chars);
    est += got;
    left -= got;
    n++;
    index[`agent:main:session-${n}`] = { sessionId: id, sessionFile: `${id}.jsonl`, updatedAt: start.getTime(), totalTokens: Math.round(chars / 4), compactionCount: 0 };
  }
  write(path.join(sessions, 'sessions.json'), `${JSON.stringify(index, null, 2)}\n`);

  // Config: static embedder, both sources, no watcher (benchmarks drive syncs themselves).
  const config = { agents: { defaults: { memorySearch: { provider: 'static', sources: ['memory', 'sessions'], sync: { watch: false } } } } };
  write(path.join(dir, 'cairn.json'), `${JSON.stringify(config, null, 2)}\n`);
  write(path.join(dir, 'cairn', 'state.json'), `${JSON.stringify({ createdBy: 'cairn', writable: true, createdAt: CORPUS_NOW.toISOString() }, null, 2)}\n`);

  return {
    version: CORPUS_VERSION,
    seed: CORPUS_SEED,
    size,
    files: { daily: plan.days, evergreen: plan.evergreen, sessions: n, total: 1 + plan.days + plan.evergreen + n },
    bytes,
    estimatedChunks: est,
    generatedMs: Math.round(performance.now() - started),
  };
}

/** The corpus of `size`, generated into bench/.data/corpus-<size>/ unless already there. */
export async function ensureCorpus(size: CorpusSize, opts: { dataDir?: string; log?: (m: string) => void } = {}): Promise<Corpus> {
  const dir = path.join(opts.dataDir ?? DATA_DIR, `corpus-${size}`);
  const manifestFile = path.join(dir, 'manifest.json');
  let manifest: CorpusManifest | undefined;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as CorpusManifest;
    if (manifest.version !== CORPUS_VERSION || manifest.seed !== CORPUS_SEED) manifest = undefined;
  } catch {
    manifest = undefined;
  }
  if (!manifest) {
    opts.log?.(`generating the ${size} corpus in ${dir} …`);
    // A half-written corpus from an interrupted run must not be reused: start clean.
    fs.rmSync(dir, { recursive: true, force: true });
    setVocabulary(await loadVocabulary());
    manifest = generate(size, dir);
    fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  return { dir, workspace: path.join(dir, 'workspace'), sessionsDir: path.join(dir, 'agents', 'main', 'sessions'), manifest };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const sizes = process.argv.slice(2).filter((a): a is CorpusSize => a in PLANS);
  console.log('| corpus | files (daily / evergreen / sessions) | MB | est. chunks | generated in |');
  console.log('|---|---|---|---|---|');
  for (const size of sizes.length ? sizes : CORPUS_SIZES) {
    const { manifest: m } = await ensureCorpus(size, { log: (x) => console.error(x) });
    console.log(`| ${size} | ${m.files.total} (${m.files.daily} / ${m.files.evergreen} / ${m.files.sessions}) | ${(m.bytes / 1e6).toFixed(1)} | ${m.estimatedChunks} | ${(m.generatedMs / 1000).toFixed(1)} s |`);
  }
}
