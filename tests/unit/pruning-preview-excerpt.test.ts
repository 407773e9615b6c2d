/**
 * prune.preview sends excerpts (issue 14.2): each tool result's first 1,200 chars per side
 * with the full lengths, so a 100 MB session's preview is not 100 MB of JSON. What must not
 * change is what the user reads from it: the stats are those of pruning over the full
 * texts, and "show all" (prune.text) returns the whole text on disk and the whole pruned text.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { ContextPruningSchema } from '../../electron/engine/config/schema';
import { findLastCallAt, currentModel, prune } from '../../electron/engine/pruning';
import { buildContext } from '../../electron/engine/transcript/context';
import { readTranscript } from '../../electron/engine/transcript/read';
import { createTranscriptFile } from '../../electron/engine/transcript/append';
import { openSessionFile, type NewEntry } from '../../electron/engine/transcript/session-file';
import type { Message } from '../../shared/types/messages';
import { tmpDir } from '../helpers/tmp';

/** A numbered log of `chars` chars: every position differs, so a wrong slice shows. */
function log(chars: number, seed: number): string {
  let s = '';
  for (let i = 0; s.length < chars; i++) s += `[${seed}:${i}] step ${i} ok\n`;
  return s.slice(0, chars);
}

/** A session of `turns` tool turns with results of varied sizes, big ones every third turn. */
function writeSession(stateDir: string, turns: number): { file: string; texts: Map<string, string> } {
  const dir = path.join(stateDir, 'agents', 'main', 'sessions');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 's-big.jsonl');
  createTranscriptFile(file, { id: 's-big', timestamp: '2025-03-01T00:00:00.000Z', cwd: dir });
  const s = openSessionFile(file);
  const msg = (message: Message): NewEntry => ({ type: 'message', message });
  const all: NewEntry[] = [];
  const texts: string[] = [];
  for (let i = 0; i < turns; i++) {
    const text = log(i % 3 === 0 ? 60_000 + i : 700 + i * 37, i);
    texts.push(text);
    all.push(
      msg({ role: 'user', content: `Run step ${i}.` }),
      msg({ role: 'assistant', content: [{ type: 'toolCall', id: `c${i}`, name: 'bash', arguments: { command: `step ${i}` } }] }),
      msg({ role: 'toolResult', toolCallId: `c${i}`, toolName: 'bash', content: [{ type: 'text', text }], isError: false }),
      msg({ role: 'assistant', content: [{ type: 'text', text: `Step ${i} done.` }] }),
    );
  }
  s.append(...all);
  const t = readTranscript(file);
  const byId = new Map<string, string>();
  let k = 0;
  for (const e of t.entries) if ((e.message as { role?: string } | undefined)?.role === 'toolResult') byId.set(e.id, texts[k++] as string);
  return { file, texts: byId };
}

describe('prune.preview excerpts', () => {
  it('sends 1,200-char excerpts with full lengths, and its stats equal pruning over the full texts', async () => {
    const stateDir = tmpDir();
    const { file, texts } = writeSession(stateDir, 30);
    const engine = createEngine({ stateDir });
    try {
      const api = createDirectClient(engine);
      const now = '2025-03-02T11:00:00.000Z';
      const req = { sessionId: 's-big', contextWindowTokens: 10_000, now, ignoreTtl: true } as const;
      const r = await api['prune.preview'](req);

      // The same pruning, computed here over the full texts of the file.
      const t = readTranscript(file);
      const built = buildContext(t);
      const full = prune(built.messages, ContextPruningSchema.parse({}), {
        contextWindowTokens: 10_000,
        now: Date.parse(now),
        lastCallAt: findLastCallAt(t.entries, currentModel(t.entries)),
        entryIds: built.sources.map((s) => s.entryId),
        ignoreTtl: true,
      });
      expect(full.diff.softTrimmed).toBeGreaterThan(0);
      expect(full.diff.cleared).toBeGreaterThan(0);
      expect(r.diff).toEqual(full.diff);

      // Each row: a prefix of the real text, at most 1,200 chars, and the real full length.
      expect(r.results).toHaveLength(texts.size);
      for (const row of r.results) {
        const disk = texts.get(row.entryId as string) as string;
        expect(row.beforeLength).toBe(disk.length);
        expect(row.before).toBe(disk.slice(0, 1200));
      }
      // The answer is a small fraction of the tool output it describes.
      const toolChars = [...texts.values()].reduce((n, s) => n + s.length, 0);
      expect(JSON.stringify(r).length).toBeLessThan(toolChars / 4);
    } finally {
      await engine.dispose();
    }
  });

  it('prune.text pages through the whole text on disk and the whole pruned text', async () => {
    const stateDir = tmpDir();
    const { texts } = writeSession(stateDir, 12);
    const engine = createEngine({ stateDir });
    try {
      const api = createDirectClient(engine);
      const req = { sessionId: 's-big', contextWindowTokens: 50_000, now: '2025-03-02T11:00:00.000Z', ignoreTtl: true } as const;
      const r = await api['prune.preview'](req);
      const trimmed = r.results.find((x) => x.action === 'soft-trimmed' && x.beforeLength > 50_000);
      expect(trimmed).toBeDefined();
      const id = trimmed?.entryId as string;

      // On disk, in pages of 25,000 chars: exactly the text in the file.
      let disk = '';
      for (let offset = 0; ; ) {
        const p = await api['prune.text']({ ...req, entryId: id, side: 'before', offset, limit: 25_000 });
        expect(p.length).toBe(trimmed?.beforeLength);
        disk += p.text;
        offset += p.text.length;
        if (offset >= p.length) break;
      }
      expect(disk).toBe(texts.get(id));

      // As sent: the whole soft-trimmed text, whose excerpt the preview showed.
      const after = await api['prune.text']({ ...req, entryId: id, side: 'after' });
      expect(after.length).toBe(trimmed?.afterLength);
      expect(after.text.startsWith(trimmed?.after as string)).toBe(true);
      expect(after.text).toMatch(new RegExp(`\\[Tool result trimmed: kept first 1500 chars and last 1500 chars of ${trimmed?.beforeLength} chars\\.\\]$`));
      expect(after.text.slice(0, 1500)).toBe(disk.slice(0, 1500));

      // An entry that is not a tool result of the context: a clear not_found.
      await expect(api['prune.text']({ ...req, entryId: 'nope0000', side: 'before' })).rejects.toMatchObject({ code: 'not_found', message: expect.stringContaining('nope0000') });
    } finally {
      await engine.dispose();
    }
  });
});
