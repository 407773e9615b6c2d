/**
 * What the model reads (issue 37): LoCoMo questions through Cairn's real recall path —
 * `recallForPrompt`, the OpenClaw plugin's side, with the plugin's defaults (600 tokens, score
 * floor 0.1, 6 hits) unless a budget is given — scored by whether each evidence turn's words
 * stand in the section: an evidence turn counts when its first 80 characters, without the
 * `**Speaker:**` prefix, whitespace and case folded, appear in the section's text, folded the
 * same way (the section's escaping undone). Beside it: the share inside the section's cited
 * ranges (a reader who follows every citation), the mean section size, the recall time, and the
 * characters injected for questions whose answer is nowhere in memory (bench/eval-data/
 * silence-questions.json: written for this, no LoCoMo text).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Embedder } from '../../electron/engine/embed/types';
import type { MemorySearchSettings } from '../../electron/engine/config/schema';
import { MemoryIndex } from '../../electron/engine/index/memory-index';
import { recallForPrompt } from '../../electron/engine/openclaw/recall';
import { openclawTokens } from '../../electron/engine/openclaw/token-estimate';
import { quantile } from './stats';
import { LOCOMO_CATEGORIES, locomoCacheDir, type LocomoConversation } from './locomo';
import { PLUGIN_DEFAULTS, recallContext, recallRequest } from './recall-context';
import { searchIndex } from '../../electron/engine/search/index-search';

export { PLUGIN_DEFAULTS };

/** Questions whose answer is nowhere in the dev conversations (written for this bench). */
export function silenceQuestions(): string[] {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'eval-data', 'silence-questions.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')) as string[];
}

export interface SectionMetrics {
  tokens: number;
  n: number;
  /** Share of evidence turns whose text stands in the section. */
  inSection: number;
  /** Share of evidence turns inside a range the section cites. */
  inCited: number;
  byCategory: Record<string, number>;
  /** Mean section size, chars and OpenClaw-estimated tokens (empty sections counted). */
  meanChars: number;
  meanTokens: number;
  /** Recall wall time per question, ms. */
  recallMs: { p50: number; p95: number };
  /** Mean chars injected for the silence questions, and how many of them got a section. */
  silence: { meanChars: number; injected: number; n: number };
}

const fold = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>');
const SPEAKER = /^\s*\*\*[^*]+:\*\*\s*/;

/** The cited ranges of a section: `[path#La-Lb]`. */
function citedRanges(section: string): { path: string; from: number; to: number }[] {
  const out: { path: string; from: number; to: number }[] = [];
  for (const m of section.matchAll(/\[([^\]\s]+)#L(\d+)(?:-L(\d+))?\]/g)) out.push({ path: m[1]!, from: Number(m[2]), to: Number(m[3] ?? m[2]) });
  return out;
}

export interface SectionRunOptions {
  indexLabel: string;
  embedder: Embedder | null;
  settings: MemorySearchSettings;
  budgets: readonly number[];
  cacheDir?: string;
  /** Write each question's evidence, where it was lost (not in the hits, not picked, not packed) and the section (JSON). */
  dumpFile?: string;
}

/** Run every question at every budget; one row of metrics per budget. */
export async function runRecallSection(convs: readonly LocomoConversation[], o: SectionRunOptions): Promise<SectionMetrics[]> {
  const cache = o.cacheDir ?? locomoCacheDir();
  const silence = silenceQuestions();
  const rows = o.budgets.map(() => ({ per: [] as { cat: string; hit: number; cited: number }[], chars: [] as number[], tokens: [] as number[], took: [] as number[], silent: [] as number[] }));
  const dump: unknown[] = [];
  for (const c of convs) {
    const dir = path.join(cache, c.id);
    fs.mkdirSync(dir, { recursive: true });
    const idx = MemoryIndex.open({
      agentId: 'main',
      indexFile: path.join(dir, `${o.indexLabel}.sqlite`),
      roots: { workspace: path.join(c.dir, 'workspace'), sessionsDir: path.join(c.dir, 'agents', 'main', 'sessions'), extraPaths: o.settings.extraPaths, sources: o.settings.sources },
      settings: o.settings,
      embedder: o.embedder,
    });
    const fileLines = new Map<string, string[]>();
    const lineOf = (file: string, line: number) => {
      if (!fileLines.has(file)) fileLines.set(file, fs.readFileSync(path.join(c.dir, 'workspace', file), 'utf8').split('\n'));
      return fileLines.get(file)![line - 1] ?? '';
    };
    try {
      await idx.sync();
      const ctx = recallContext(idx);
      for (const [b, maxTokens] of o.budgets.entries()) {
        const row = rows[b]!;
        const ask = (message: string) => recallForPrompt(ctx, recallRequest(message, maxTokens));
        for (const q of c.queries) {
          const t0 = performance.now();
          const { context } = await ask(q.question);
          row.took.push(performance.now() - t0);
          row.chars.push(context.length);
          row.tokens.push(context ? openclawTokens(context) : 0);
          const text = fold(unescape(context));
          const ranges = citedRanges(context);
          let hit = 0;
          let cited = 0;
          const ev = q.evidence.filter((id) => c.map[id]);
          for (const id of ev) {
            const e = c.map[id]!;
            const probe = fold(lineOf(e.file, e.line).replace(SPEAKER, '')).slice(0, 80);
            if (probe && text.includes(probe)) hit++;
            const sess = `sessions/${path.basename(e.jsonl)}`;
            if (ranges.some((r) => (r.path === e.file && e.line >= r.from && e.line <= r.to) || (r.path === sess && e.jsonlLine >= r.from && e.jsonlLine <= r.to))) cited++;
          }
          if (o.dumpFile && b === Math.floor(o.budgets.length / 2)) {
            const res = await searchIndex(idx, { query: q.question, maxResults: PLUGIN_DEFAULTS.maxHits * 2, packLines: true });
            const where = ev.map((id) => {
              const e = c.map[id]!;
              const text = lineOf(e.file, e.line);
              const probe = fold(text.replace(SPEAKER, '')).slice(0, 80);
              const sess = `sessions/${path.basename(e.jsonl)}`;
              const inHit = res.results.findIndex((r) => (r.path === e.file && e.line >= r.startLine && e.line <= r.endLine) || (r.path === sess && e.jsonlLine >= r.startLine && e.jsonlLine <= r.endLine));
              const pick = inHit >= 0 ? res.results[inHit]!.lines?.find((l) => fold(l.text.replace(SPEAKER, '')).startsWith(probe.slice(0, 40))) : undefined;
              const lost = probe && text.length > 0 && fold(unescape(context)).includes(probe) ? 'ok' : inHit < 0 ? 'not-in-hits' : !pick ? 'not-picked' : 'not-packed';
              return { text, lost, hit: inHit, score: pick?.score, role: pick?.role };
            });
            dump.push({ conv: c.id, q: q.question, cat: LOCOMO_CATEGORIES[q.category], ev: where, section: context });
          }
          const n = ev.length || 1;
          row.per.push({ cat: LOCOMO_CATEGORIES[q.category] ?? String(q.category), hit: hit / n, cited: cited / n });
        }
        for (const s of silence) row.silent.push((await ask(s)).context.length);
      }
    } finally {
      await idx.dispose();
    }
  }
  if (o.dumpFile) fs.writeFileSync(o.dumpFile, JSON.stringify(dump, null, 1));
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : 0);
  return rows.map((r, b) => {
    const byCategory: Record<string, number> = {};
    for (const cat of Object.values(LOCOMO_CATEGORIES)) byCategory[cat] = mean(r.per.filter((x) => x.cat === cat).map((x) => x.hit));
    return {
      tokens: o.budgets[b]!,
      n: r.per.length,
      inSection: mean(r.per.map((x) => x.hit)),
      inCited: mean(r.per.map((x) => x.cited)),
      byCategory,
      meanChars: mean(r.chars),
      meanTokens: mean(r.tokens),
      recallMs: { p50: quantile(r.took, 0.5), p95: quantile(r.took, 0.95) },
      silence: { meanChars: mean(r.silent), injected: r.silent.filter((x) => x > 0).length, n: r.silent.length },
    };
  });
}

/** The Markdown table of {@link runRecallSection}'s rows. */
export function sectionTable(rows: readonly SectionMetrics[]): string {
  const cats = Object.values(LOCOMO_CATEGORIES);
  const head = `| tokens | evidence in section | in cited ranges | ${cats.join(' | ')} | mean section (chars / tokens) | recall p50 / p95 ms | silence: mean chars, sections |\n|---|---|---|${cats.map(() => '---').join('|')}|---|---|---|`;
  const body = rows.map(
    (m) =>
      `| ${m.tokens} | ${m.inSection.toFixed(3)} | ${m.inCited.toFixed(3)} | ${cats.map((c) => m.byCategory[c]!.toFixed(3)).join(' | ')} | ${m.meanChars.toFixed(0)} / ${m.meanTokens.toFixed(0)} | ${m.recallMs.p50.toFixed(1)} / ${m.recallMs.p95.toFixed(1)} | ${m.silence.meanChars.toFixed(0)}, ${m.silence.injected}/${m.silence.n} |`,
  );
  return [head, ...body].join('\n');
}
