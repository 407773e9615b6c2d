/**
 * Issue 40 item 2: chunk ids follow the date of the note or session (index/store.ts
 * `dayKey`), so the keyword side's early stop — which ranks the highest ids a common word
 * matches — ranks the newest by date: after a full rebuild of notes whose path order and
 * date order disagree, after an incremental sync of an older note, and for an appended
 * transcript. The budget is lowered so that a handful of notes exceed it (as in
 * search-early-stop.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryFixture, settingsWith } from '../helpers/memory-fixture';
import { openDatabase } from '../../electron/engine/index/db';
import { keywordSide } from '../../electron/engine/search/lexical';

// Path order is the reverse of date order: a/ holds the newest note, f/ the oldest.
const notes: Record<string, string> = {
  'workspace/memory/a/2024-01-06.md': '# Music\n\nmade a backup of the recordings on the shared drive\n',
  'workspace/memory/b/2024-01-05.md': '# Books\n\nkeep a backup copy of the reading list\n',
  'workspace/memory/c/2024-01-04.md': '# Server\n\nnightly backup of the server failed, the disk is full\n',
  'workspace/memory/d/2024-01-03.md': '# Car\n\nthe car needs a backup camera fixed\n',
  'workspace/memory/e/2024-01-02.md': '# Garden\n\na quick backup of the laptop before the trip\n',
  'workspace/memory/f/2024-01-01.md': '# Photos\n\nbackup backup backup of the photo library\n',
};

/** Every note has "backup": above a budget of 3 postings, only the newest 3 are ranked. */
const stop = { postings: 3, tier: 3 };
const lexical = { calibration: 'relative' as const, stemWeight: 0.5, earlyStop: stop };

/** The days (or paths, for undated chunks) the early-stopped keyword side ranks for "backup". */
function tierOf(indexFile: string, sources: ('memory' | 'sessions')[] = ['memory']): string[] {
  const { db } = openDatabase(indexFile, { readonly: true });
  try {
    const side = keywordSide(db, 'backup', 10, { sources }, lexical);
    const row = db.prepare('SELECT path, day, dated FROM chunks WHERE id = ?');
    return side.candidates
      .map((c) => row.get(c.id) as { path: string; day: string; dated: number })
      .map((r) => (r.dated ? r.day : r.path))
      .sort();
  } finally {
    db.close();
  }
}

describe('newest first, by date', () => {
  it('a rebuild of notes in reverse path order ranks the newest three by date', async () => {
    const fx = memoryFixture(notes, settingsWith((s) => (s.sources = ['memory'])));
    const idx = fx.open();
    await idx.sync({ force: true });
    await idx.dispose();
    // In path order the oldest notes would be written last (highest ids): 01-01 … 01-03.
    expect(tierOf(fx.indexFile)).toEqual(['2024-01-04', '2024-01-05', '2024-01-06']);
  });

  it('an older note synced later stays out of the newest tier; a newer one enters it', async () => {
    const fx = memoryFixture(notes, settingsWith((s) => (s.sources = ['memory'])));
    const idx = fx.open();
    await idx.sync();
    fs.mkdirSync(path.join(fx.workspace, 'memory', 'z'), { recursive: true });
    fs.writeFileSync(path.join(fx.workspace, 'memory', 'z', '2023-12-01.md'), '# Old\n\nbackup backup backup backup\n');
    await idx.sync();
    expect(tierOf(fx.indexFile)).toEqual(['2024-01-04', '2024-01-05', '2024-01-06']);
    fs.writeFileSync(path.join(fx.workspace, 'memory', 'z', '2024-02-01.md'), '# New\n\none more backup\n');
    await idx.sync();
    expect(tierOf(fx.indexFile)).toEqual(['2024-01-05', '2024-01-06', '2024-02-01']);
    await idx.dispose();
  });

  it('MEMORY.md, which never decays, is always in the newest tier', async () => {
    const fx = memoryFixture({ ...notes, 'workspace/MEMORY.md': '# Facts\n\nthe backup drive is the blue one\n' }, settingsWith((s) => (s.sources = ['memory'])));
    const idx = fx.open();
    await idx.sync({ force: true });
    await idx.dispose();
    expect(tierOf(fx.indexFile)).toEqual(['2024-01-05', '2024-01-06', 'MEMORY.md']);
  });

  it('a transcript is ranked by its messages’ dates, also once appended', async () => {
    const line = (id: string, ts: string, text: string) =>
      JSON.stringify({ type: 'message', id, parentId: null, timestamp: ts, message: { role: 'user', content: text, timestamp: 1 } });
    const header = (ts: string) => JSON.stringify({ type: 'session', version: 3, id: 's', timestamp: ts, cwd: '/' });
    const fx = memoryFixture(
      {
        ...notes,
        // "0000" sorts first by path, and its first message is older than every note.
        'agents/main/sessions/0000.jsonl': `${header('2023-11-01T10:00:00Z')}\n${line('m1', '2023-11-01T10:00:01Z', 'we talked about the backup plan for the office')}\n`,
      },
      settingsWith((s) => {
        s.sources = ['memory', 'sessions'];
        s.chunking = { tokens: 16, overlap: 0 };
      }),
    );
    const idx = fx.open();
    await idx.sync({ force: true });
    expect(tierOf(fx.indexFile, ['memory', 'sessions'])).toEqual(['2024-01-04', '2024-01-05', '2024-01-06']);
    // Appended a month after the newest note: the new turn is the newest chunk.
    const file = path.join(fx.sessionsDir, '0000.jsonl');
    fs.appendFileSync(file, `${line('m2', '2024-02-03T09:00:00Z', 'the backup finally ran on the new disk, all green')}\n`);
    await idx.sync();
    expect(tierOf(fx.indexFile, ['memory', 'sessions'])).toEqual(['2024-01-05', '2024-01-06', '2024-02-03']);
    await idx.dispose();
  });
});
