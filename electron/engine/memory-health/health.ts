/**
 * The MEMORY.md health list: near-duplicates, entries citing a source that is gone,
 * entries never recalled since dreaming promoted them (OpenClaw's recall store, when there is
 * one), and entries a later daily note contradicts — each with its evidence and, for
 * duplicates and stale entries, the edit that would fix it (whole-file text: the UI shows it as
 * a diff and applies it through `memory.write`, only where writing is on). Read only.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { HealthItem, MemoryHealth } from '../../../shared/types/audit';
import type { EngineContext } from '../core/context';
import { itemKept, keptCorpus } from '../compaction/audit-keep';
import { contradictionItems, duplicateItems, staleSourceItems, type NoteLine } from './checks';
import { parseMemoryEntries, withoutLine, type MemoryEntry } from './entries';
import { readRecallStore, type RecallEntry } from './recall';
import { vectorDuplicateItems } from './vectors';

const DAILY = /^(\d{4}-\d{2}-\d{2})(?:[-_].*)?\.md$/;

/** Every line of the daily notes, with the note's date. */
function dailyNoteLines(memoryDir: string): NoteLine[] {
  const out: NoteLine[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(memoryDir);
  } catch {
    return out;
  }
  for (const name of names) {
    const m = DAILY.exec(name);
    if (!m) continue;
    let text: string;
    try {
      text = fs.readFileSync(path.join(memoryDir, name), 'utf8');
    } catch {
      continue;
    }
    text.split('\n').forEach((l, i) => {
      const t = l.trim().replace(/^(?:[-*+•]|\d+[.)])\s+/, '');
      if (t && !/^#{1,6}\s/.test(l.trim())) out.push({ path: `memory/${name}`, date: m[1] as string, line: i + 1, text: t });
    });
  }
  return out;
}

function neverRecalledItems(entries: readonly MemoryEntry[], recalls: readonly RecallEntry[], fileText: string): HealthItem[] {
  const out: HealthItem[] = [];
  for (const r of recalls) {
    if (!r.promotedAt) continue;
    if (r.lastRecalledAt && r.lastRecalledAt > r.promotedAt) continue;
    const e =
      entries.find((x) => x.cites?.path === r.path && x.cites.from === r.startLine) ??
      entries.find((x) => r.snippet && itemKept(x.text, keptCorpus([r.snippet])) && itemKept(r.snippet, keptCorpus([x.text])));
    if (!e) continue;
    out.push({
      kind: 'never-recalled',
      entry: { path: 'MEMORY.md', line: e.line, text: e.text },
      message: `Promoted ${r.promotedAt.slice(0, 10)} from ${r.path}#L${r.startLine}; never recalled since (${r.recallCount} recall${r.recallCount === 1 ? '' : 's'} before, the last ${r.lastRecalledAt?.slice(0, 10) ?? 'unknown'}).`,
      evidence: [{ path: r.path, line: r.startLine, text: r.snippet }],
      fix: { kind: 'remove', path: 'MEMORY.md', text: withoutLine(fileText, e.line) },
    });
  }
  return out;
}

/** The health list of the agent's MEMORY.md. */
export function memoryHealth(ctx: EngineContext, agentId?: string): MemoryHealth {
  const paths = ctx.paths(agentId);
  const rel = fs.existsSync(path.join(paths.workspace, 'MEMORY.md')) || !fs.existsSync(path.join(paths.workspace, 'memory.md')) ? 'MEMORY.md' : 'memory.md';
  const file = path.join(paths.workspace, rel);
  const writable = ctx.state().writable;
  let text: string;
  let mtimeMs: number | undefined;
  try {
    text = fs.readFileSync(file, 'utf8');
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return { agentId: paths.agentId, path: rel, exists: false, entries: 0, items: [], recall: { state: 'unknown', reason: `${rel} does not exist` }, vectors: { used: false, reason: `${rel} does not exist` }, writable };
  }
  const entries = parseMemoryEntries(text);
  const readNote = (p: string) => {
    try {
      return fs.readFileSync(path.join(paths.workspace, p), 'utf8');
    } catch {
      return undefined;
    }
  };
  const items: HealthItem[] = [...duplicateItems(entries, text)];
  const vec = vectorDuplicateItems(paths.indexFile, rel, entries, text, new Set(items.map((i) => i.entry.line)));
  items.push(...vec.items);
  items.push(...contradictionItems(entries, dailyNoteLines(paths.memoryDir)));
  items.push(...staleSourceItems(entries, readNote, text));
  const recall = readRecallStore(ctx.stateDir, paths.workspace);
  if (recall.state === 'known') items.push(...neverRecalledItems(entries, recall.entries, text));
  for (const it of items) if (it.fix && rel !== 'MEMORY.md') it.fix.path = rel;
  items.sort((a, b) => a.entry.line - b.entry.line);
  return {
    agentId: paths.agentId,
    path: rel,
    exists: true,
    entries: entries.length,
    items,
    recall: recall.state === 'known' ? { state: 'known' } : { state: 'unknown', reason: recall.reason },
    vectors: vec.used ? { used: true } : { used: false, reason: vec.reason },
    writable,
    mtimeMs,
  };
}
