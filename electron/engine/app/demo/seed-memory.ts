/**
 * A realistic memory workspace for the e2e suite and `npm run demo`: MEMORY.md, a month of
 * daily notes ending today (decisions, TODOs, identifiers such as commit hashes, ports,
 * paths and config keys; a few notes in Chinese and Japanese), and some evergreen notes.
 * Deterministic for a given `now`, so tests can name what they look for.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openStateDir } from '../../config/state-dir';

export interface SeedMemoryOptions {
  /** "Today": the newest daily note's date. */
  now?: Date;
  /** How many daily notes, ending today (default 30). */
  days?: number;
}

export interface SeededMemory {
  workspace: string;
  /** Workspace-relative paths written, MEMORY.md first. */
  files: string[];
  /** Dates (YYYY-MM-DD) of the daily notes, oldest first. */
  days: string[];
}

/** Local-date YYYY-MM-DD (daily notes are named in the user's time zone). */
export function ymd(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

export const MEMORY_MD = `# Long-term memory

## About the user
- Name: Robin. Works on **Cairn**, an offline workbench for assistant memory.
- Prefers short answers with the exact command to run; dislikes emoji in commit messages.
- Time zone: Europe/Berlin. Writes notes in English, sometimes in Chinese (中文) and Japanese.

## Standing decisions
- The state dir is plain files: Markdown for memory, JSONL for sessions, SQLite for the index only.
- Never store API keys in memory files; they live in \`cairn.json\` under \`cairn.llm.apiKey\`.
- Dev server runs on port **5173**; the API proxy on **8787**.
- Backups: \`restic\` to the NAS at \`/mnt/nas/backups/cairn\` every night at 02:30.

## People
- Dana — reviews the search pipeline; ask her about BM25 tuning.
- Kenji (健二) — owns the packaging; prefers messages in the morning JST.
`;

interface Topic {
  title: string;
  lines: string[];
}

/** Daily topics, cycled over the month; each mentions identifiers a search can find exactly. */
const TOPICS: Topic[] = [
  { title: 'Search pipeline', lines: ['Decision: BM25 side ORs the query terms; exact tokens still rank first.', 'Tuned `memory.search.query.minScore` to 0.35 after the eval run.', 'TODO: record hit@6 and MRR for the static embedder in docs/benchmarks.md.'] },
  { title: 'Release prep', lines: ['Tagged v0.3.0 at commit `9f2c4e1a7b`.', 'Decision: ship the AppImage first, the .dmg next week.', 'TODO: check the notarisation log for the mac build.'] },
  { title: 'Database', lines: ['Postgres for the sync service listens on port 5433 (5432 is the system one).', 'Migration `0042_add_chunk_hash.sql` applied on staging.', 'Decision: keep WAL mode and busy_timeout 5000 in openDatabase().'] },
  { title: 'Compaction', lines: ['Set `agents.defaults.compaction.reserveTokensFloor` to 24000 for the long refactor session.', 'The summary of a summary lost the port numbers once; identifierPolicy stays "strict".', 'TODO: add a test that /compact keeps the last 20k tokens verbatim.'] },
  { title: 'Pruning', lines: ['Pruning trims tool results after the cache TTL (5m) expired.', 'A 120k-char `grep -r` output got soft-trimmed to 4k chars; fine.', 'Decision: never prune tool results that contain images.'] },
  { title: 'Infra', lines: ['Moved the runner to `ci-runner-03.internal:2222`.', 'Disk on the NAS at 81%; pruned old snapshots with `restic forget --keep-daily 14`.', 'TODO: renew the TLS cert for docs.cairn.local before the 20th.'] },
  { title: 'Embeddings', lines: ['Downloaded embeddinggemma-300m (Q8_0, 313 MB) into `cairn/models/`.', 'Local embedding of 10k chunks took about 4 minutes on the laptop.', 'Decision: the shipped static embeddings (potion-base-8M) stay the offline fallback.'] },
  { title: 'UI', lines: ['Score breakdown shows vector, text, merged, decay and the MMR rank as small bars.', 'Ctrl+K opens search from anywhere.', 'TODO: keyboard navigation in the memory calendar.'] },
  { title: 'Bug hunt', lines: ['Fixed the watcher double-fire on rename (commit `3b7d0c55e2`).', 'Root cause: chokidar emitted add + change within 10 ms.', 'Decision: debounce file events by 1.5 s as the spec says.'] },
  { title: 'Meeting with Dana', lines: ['Dana wants MMR off by default until we measure lambda 0.7 against 0.5.', 'Agreed: temporal decay half-life 30 days, MEMORY.md never decays.', 'TODO: send Dana the eval numbers by Friday.'] },
];

const CJK_NOTES: Record<number, string> = {
  3: '## 中文笔记\n- 决定：索引文件放在 `cairn/index/main.sqlite`，不要用 OpenClaw 的数据库。\n- 待办：测试中文搜索的二元分词效果。\n',
  11: '## 日本語メモ\n- 健二さんとパッケージングについて相談した。AppImage を先に出す。\n- TODO: 署名の手順を README に書く。\n',
  19: '## 中文笔记\n- 会议：讨论了记忆刷新（memory flush）的阈值，softThresholdTokens 保持 4000。\n',
};

function dailyNote(date: string, i: number): string {
  const a = TOPICS[i % TOPICS.length] as Topic;
  const b = TOPICS[(i * 7 + 3) % TOPICS.length] as Topic;
  const parts = [`# ${date}`, '', `## ${a.title}`, ...a.lines.map((l) => `- ${l}`), ''];
  if (b !== a) parts.push(`## ${b.title}`, ...b.lines.slice(0, 2).map((l) => `- ${l}`), '');
  const cjk = CJK_NOTES[i];
  if (cjk) parts.push(cjk);
  return `${parts.join('\n').trimEnd()}\n`;
}

const NOTES: Record<string, string> = {
  'memory/projects/cairn.md': `# Project: Cairn

## Layout
- Engine in \`electron/engine/\`, renderer in \`renderer/src/\`, contract in \`shared/contract.ts\`.
- Index per agent at \`cairn/index/<agentId>.sqlite\` (FTS5 + sqlite-vec \`vec0\`).

## Conventions
- Atomic writes: temp file, fsync, rename.
- Config keys follow OpenClaw: \`agents.defaults.contextPruning.ttl\`, \`agents.defaults.compaction.keepRecentTokens\`.
`,
  'memory/runbooks/restore-backup.md': `# Runbook: restore a backup

1. \`restic -r /mnt/nas/backups/cairn snapshots\`
2. \`restic -r /mnt/nas/backups/cairn restore latest --target /tmp/restore\`
3. Copy \`workspace/\` back; run \`cairn index --force\` to rebuild the index.
`,
};

/**
 * Write the memory part of a sample state dir. The dir is opened as Cairn's first (so it is
 * writable), then MEMORY.md, daily notes and notes are written under its workspace.
 */
export function seedMemory(stateDir: string, opts: SeedMemoryOptions = {}): SeededMemory {
  openStateDir(stateDir);
  const now = opts.now ?? new Date();
  const days = opts.days ?? 30;
  const workspace = path.join(stateDir, 'workspace');
  const files: string[] = [];
  const write = (rel: string, text: string) => {
    const p = path.join(workspace, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
    files.push(rel);
  };
  write('MEMORY.md', MEMORY_MD);
  const dates: string[] = [];
  for (let i = days - 1; i >= 0; i--) {
    const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() - i, 12);
    const date = ymd(d);
    dates.push(date);
    write(`memory/${date}.md`, dailyNote(date, days - 1 - i));
  }
  for (const [rel, text] of Object.entries(NOTES)) write(rel, text);
  return { workspace, files, days: dates };
}
