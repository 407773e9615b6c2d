/**
 * What a compaction dropped comes back (issue 37 item 5): after a compaction whose summary
 * dropped the staging API's port, the next question about that port gets the exact line,
 * cited (`sessions/<id>.jsonl#L4`), in the recall section OpenClaw's prompt receives — with
 * session search off (the default) and on (then once, not twice) — ranked above a weaker
 * memory note; `cairn.recall.compacted: false` turns it off; a session of OpenClaw's SQLite
 * store (the real 2026.9.6 fixture) and its JSONL export give the same cited line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../electron/engine/engine';
import { compactedLines, compactedPart, pickCompacted } from '../../electron/engine/openclaw/compacted-lines';
import { parseTranscript } from '../../electron/engine/transcript/parse';
import { sessionCitation } from '../../electron/engine/sessions/citation';
import { recallForPrompt, type RecallRequest } from '../../electron/engine/openclaw/recall';
import { copyOpenClawState } from '../helpers/openclaw-state';
import { tmpDir, writeTree } from '../helpers/tmp';

const SID = 'port-1';
const QUESTION = 'Which port does the staging API listen on?';

interface Line {
  type: string;
  [k: string]: unknown;
}
const user = (text: string, id?: string): Line => ({ type: 'message', ...(id ? { id } : {}), message: { role: 'user', content: text } });
const assistant = (text: string): Line => ({ type: 'message', message: { role: 'assistant', content: [{ type: 'text', text }] } });

/**
 * A session whose compaction (line 8) replaced lines 2–5 by a summary that keeps the logo
 * but not the port: line 4 says `port 8443`, which the audit lists as lost.
 */
function portSession(files: Record<string, string> = {}): string {
  const stateDir = tmpDir('cairn-compacted-');
  const lines: Line[] = [
    user('Let us set up the new service for the demo.'),
    assistant('Sure. What should I call it?'),
    user('Call it the staging API; it listens on port 8443 behind the VPN.'),
    assistant('Done, it is configured.'),
    user('Now the logo colours.', 'keep0001'),
    assistant('Teal works well.'),
    { type: 'compaction', summary: '## Goal\n- Set up a service for the demo and choose logo colours.\n## Decisions\n- Logo: teal.', firstKeptEntryId: 'keep0001', tokensBefore: 12_000, tokensAfter: 3_000 },
    user('And the logo font?'),
    assistant('Inter.'),
  ];
  let parent: string | null = null;
  const out = [JSON.stringify({ type: 'session', version: 3, id: SID, timestamp: '2026-11-03T09:00:00.000Z', cwd: stateDir })];
  lines.forEach((l, i) => {
    const id = (l.id as string | undefined) ?? `e${i}`;
    out.push(JSON.stringify({ ...l, id, parentId: parent, timestamp: `2026-11-03T10:${String(i).padStart(2, '0')}:00.000Z` }));
    parent = id;
  });
  writeTree(stateDir, { [`agents/main/sessions/${SID}.jsonl`]: `${out.join('\n')}\n`, ...files });
  return stateDir;
}

const ask = (message: string, sessionId = SID): RecallRequest => ({ agentId: 'main', sessionId, message, budgetMs: 600_000, maxTokens: 600, minScore: 0.1 });

async function recall(stateDir: string, message: string, sessionId = SID) {
  const engine = createEngine({ stateDir });
  try {
    return await recallForPrompt(engine.ctx, ask(message, sessionId));
  } finally {
    await engine.dispose();
  }
}

describe('recall brings back what a compaction dropped', () => {
  it('gives the exact lost line, cited, with session search off', async () => {
    const stateDir = portSession();
    const res = await recall(stateDir, QUESTION);
    expect(res.entry.outcome).toBe('injected');
    expect(res.context).toContain(`[sessions/${SID}.jsonl#L4]\nUser: Call it the staging API; it listens on port 8443 behind the VPN.`);
    expect(res.entry.hits[0]).toMatchObject({ citation: `sessions/${SID}.jsonl#L4`, startLine: 4, endLine: 4, source: 'sessions' });
    // The kept part and the summary are in front of the model already: none of them is recalled.
    expect(res.context).not.toContain('Teal');
    // The citation opens the line it names.
    const engine = createEngine({ stateDir });
    try {
      expect(sessionCitation(engine.ctx, 'main', `sessions/${SID}.jsonl`, 4, 4).text).toBe('L4 User: Call it the staging API; it listens on port 8443 behind the VPN.');
    } finally {
      await engine.dispose();
    }
  });

  it('with session search on, the session gives the exact line once, not its chunk as well', async () => {
    const stateDir = portSession({ 'openclaw.json': JSON.stringify({ memory: { search: { sources: ['memory', 'sessions'] } } }) });
    const res = await recall(stateDir, QUESTION);
    const fromSession = res.entry.hits.filter((h) => h.path === `sessions/${SID}.jsonl`);
    expect(fromSession.map((h) => h.citation)).toEqual([`sessions/${SID}.jsonl#L4`]);
    expect(res.context.match(/port 8443 behind the VPN/g)).toHaveLength(1);
  });

  it('ranks the lost line above a weaker memory note', async () => {
    const stateDir = portSession({ 'workspace/memory/2026-11-02.md': '# 2026-11-02\n\n- The office printer listens on port 9100.\n' });
    const res = await recall(stateDir, QUESTION);
    const cites = res.entry.hits.map((h) => h.citation);
    expect(cites[0]).toBe(`sessions/${SID}.jsonl#L4`);
    expect(cites.some((c) => c.startsWith('memory/2026-11-02.md'))).toBe(true);
    expect(res.context.indexOf('port 8443')).toBeLessThan(res.context.indexOf('port 9100'));
  });

  it('is off with cairn.recall.compacted: false', async () => {
    const stateDir = portSession({ 'cairn.json': JSON.stringify({ cairn: { recall: { compacted: false } } }) });
    const res = await recall(stateDir, QUESTION);
    expect(res.context).not.toContain('8443');
    expect(res.entry.outcome).toBe('none');
  });

  it('follows the session as it grows: a new turn is in context (not recalled) until a compaction replaces it', async () => {
    const stateDir = portSession();
    const file = path.join(stateDir, 'agents', 'main', 'sessions', `${SID}.jsonl`);
    const append = (l: Line, id: string, parentId: string) => fs.appendFileSync(file, `${JSON.stringify({ ...l, id, parentId, timestamp: '2026-11-03T11:00:00.000Z' })}\n`);
    const engine = createEngine({ stateDir });
    try {
      const backup = 'When does the nightly backup run?';
      expect((await recallForPrompt(engine.ctx, ask(QUESTION))).context).toContain(`#L4]\nUser: Call it the staging API`);
      append(user('The nightly backup runs at 02:30 from host bravo.'), 'n1', 'e8');
      append(assistant('Noted.'), 'n2', 'n1');
      expect((await recallForPrompt(engine.ctx, ask(backup))).context).not.toContain('02:30');
      expect((await recallForPrompt(engine.ctx, ask(QUESTION))).context).toContain(`#L4]\nUser: Call it the staging API`);
      append(user('Next: the release notes.'), 'n3', 'n2');
      append({ type: 'compaction', summary: '## Goal\n- Demo service, logo, release notes.', firstKeptEntryId: 'n3', tokensBefore: 9_000 }, 'c2', 'n3');
      const after = await recallForPrompt(engine.ctx, ask(backup));
      expect(after.context).toContain(`[sessions/${SID}.jsonl#L11]\nUser: The nightly backup runs at 02:30 from host bravo.`);
    } finally {
      await engine.dispose();
    }
  });

  it('adds nothing for a session that was never compacted, or that Cairn does not know', async () => {
    const stateDir = portSession();
    expect((await recall(stateDir, QUESTION, 'no-such-session')).entry.outcome).toBe('none');
  });
});

describe("recall from OpenClaw's SQLite session store", () => {
  const LEGACY = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'openclaw-2026.9.6', 'legacy-export');

  it('cites the same compacted line from the SQLite store and from its JSONL export', async () => {
    // OpenClaw 2026.9.6's s1-alpha: its compaction replaced lines 2–37; line 14 asked about the tangerine-compass.
    const question = 'Where does the tangerine-compass point?';
    const oc = copyOpenClawState();
    const before = oc.tree();
    const fromDb = await recall(oc.stateDir, question, 's1-alpha');
    expect(fromDb.context).toMatch(/\[sessions\/s1-alpha\.jsonl#L14(-L\d+)?\]\nUser: \[\[think\]\] Where does the tangerine-compass point\?/);
    expect(oc.tree()).toEqual(before);

    const dir = path.join(tmpDir('cairn-oclegacy-'), '.openclaw');
    fs.cpSync(LEGACY, dir, { recursive: true });
    const fromJsonl = await recall(dir, question, 's1-alpha');
    const cite = (c: string) => /\[sessions\/s1-alpha\.jsonl#L14[^\]]*\]/.exec(c)?.[0];
    expect(cite(fromJsonl.context)).toBe(cite(fromDb.context));
  });
});

describe('picking lines of the compacted part', () => {
  /** The compacted lines of a transcript of `rows` (line n + 2 for row n) whose compaction replaced all of them. */
  const prepared = (rows: { text: string; lost?: boolean }[]) => {
    const entries = rows.map((r, i) => ({ type: 'message', id: `m${i}`, parentId: i ? `m${i - 1}` : null, timestamp: '2026-11-03T10:00:00.000Z', message: r.text.startsWith('User: ') ? { role: 'user', content: r.text.slice(6) } : { role: 'assistant', content: [{ type: 'text', text: r.text.slice(11) }] } }));
    const comp = { type: 'compaction', id: 'c1', parentId: `m${rows.length - 1}`, timestamp: '2026-11-03T11:00:00.000Z', summary: 'Talked.', firstKeptEntryId: 'none', tokensBefore: 1 };
    const t = parseTranscript('s.jsonl', [{ type: 'session', version: 3, id: 's', timestamp: '2026-11-03T09:00:00.000Z', cwd: '/' }, ...entries, comp].map((e) => JSON.stringify(e)).join('\n') + '\n');
    const part = compactedPart(t)!;
    const lost = new Set(rows.flatMap((r, i) => (r.lost ? [i + 2] : [])));
    return compactedLines(t, part, { lines: lost, identifiers: [] });
  };

  it('a lost line outranks the same match said in a line that is not lost', () => {
    const lines = prepared([{ text: 'User: the cache server runs on box seven.' }, { text: 'Assistant: ok.' }, { text: 'User: the cache server moved to box nine.', lost: true }]);
    const hits = pickCompacted(lines, 'where does the cache server run?', 's');
    expect(hits.map((h) => h.citation)).toEqual(['sessions/s.jsonl#L4', 'sessions/s.jsonl#L2']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('a matching question brings its reply; a long line is cut around the match; CJK lines are picked', () => {
    const long = `Assistant: ${'filler words here. '.repeat(60)}The backup key lives in vault slot 12. ${'more filler. '.repeat(40)}`;
    const lines = prepared([{ text: 'User: which region hosts the replica?' }, { text: 'Assistant: eu-west-3.' }, { text: 'User: and the backup?' }, { text: long }, { text: 'User: 会议改到星期五下午三点。' }]);
    const region = pickCompacted(lines, 'which region hosts the replica', 's')[0]!;
    expect(region.citation).toBe('sessions/s.jsonl#L2-L3');
    expect(region.lines?.map((l) => [l.line, l.role])).toEqual([[2, 'match'], [3, 'context']]);
    const vault = pickCompacted(lines, 'vault slot backup key', 's')[0]!;
    const cut = vault.lines?.find((l) => l.line === 5)!.text ?? '';
    expect(cut).toMatch(/^Assistant: ….*The backup key lives in vault slot 12\..*…$/);
    expect(cut.length).toBeLessThanOrEqual(330);
    expect(pickCompacted(lines, '会议改到哪天？', 's')[0]?.citation).toBe('sessions/s.jsonl#L6');
  });

  it('cuts a long line of emoji without splitting one in half', () => {
    // Every cut position falls between the two halves of some emoji unless the cut knows
    // surrogate pairs: a lone half is a replacement character in the prompt, or invalid JSON.
    for (const pad of [0, 1]) {
      const long = `Assistant: ${'x'.repeat(pad)}${'🙂'.repeat(150)} the vault slot is 12 ${'🎉'.repeat(150)}`;
      const cut = pickCompacted(prepared([{ text: long }]), 'vault slot', 's')[0]!.lines![0]!.text;
      expect(cut).toContain('the vault slot is 12');
      expect(Buffer.from(cut).toString()).toBe(cut); // a lone surrogate would come back as U+FFFD
    }
  });
});
