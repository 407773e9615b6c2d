/**
 * The memory flush inside a chat turn is maintenance the turn can live without: a flush whose
 * model fails, or whose daily note cannot be written, leaves the turn answering, tells the
 * user (a `flush` event with a warning naming what failed), is not recorded as this cycle's
 * flush, and runs again at the next turn. And the flush is sent the pruned context, as every
 * other model call of the turn.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTurn, type TurnOptions } from '../../electron/engine/chat/turn';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { readSessionIndex } from '../../electron/engine/transcript/sessions-index';
import type { ChatEvent } from '../../shared/types/chat';
import type { Message } from '../../shared/types/messages';
import { ScriptedLlm, isFlushRequest } from '../helpers/scripted-llm';
import { transcriptLines, turnSetup } from '../helpers/turn-setup';

const NOTE = 'memory/2026-11-30.md';
/** A flush due on every turn of a cycle: the transcript is always over 1 byte. */
const FLUSH_NOW = { memoryFlush: { forceFlushTranscriptBytes: 1 } };

/** turnSetup whose `opts` takes this turn's compaction settings (FLUSH_NOW unless given). */
function setup(files: Record<string, string> = {}) {
  const s = turnSetup(files);
  const opts = (llm: ScriptedLlm, compaction: Record<string, unknown> = FLUSH_NOW, extra: Partial<TurnOptions> = {}): TurnOptions =>
    s.opts(llm, { compaction: CompactionSchema.parse(compaction), ...extra });
  return { ...s, opts };
}

const flushEvents = (events: ChatEvent[]) => events.filter((e): e is Extract<ChatEvent, { kind: 'flush' }> => e.kind === 'flush');
const flushRecorded = (sessionsIndex: string) => readSessionIndex(sessionsIndex)['s1']?.memoryFlushCompactionCount;
const replyLines = (file: string): string[] => transcriptLines(file).slice(1).filter((e) => e.type === 'message').map((e) => e.message.role);

/** A model that writes `line` to today's note when asked to flush, and answers `reply` otherwise. */
function notingModel(line: string, reply: string, opts: { flushFails?: () => boolean } = {}): ScriptedLlm {
  return new ScriptedLlm((req) => {
    if (isFlushRequest(req)) {
      if (opts.flushFails?.()) throw new Error('the model server answered 503 Service Unavailable');
      const wrote = req.messages.some((m) => m.role === 'toolResult');
      return wrote ? { text: 'NO_REPLY' } : { toolCalls: [{ name: 'write', arguments: { path: NOTE, content: line } }] };
    }
    return { text: reply };
  }, 100_000);
}

describe('a failed memory flush does not fail the chat turn', () => {
  it('a flush whose model throws: the turn still answers, the user is warned, and the next turn flushes again', async () => {
    const s = setup();
    let fail = true;
    const llm = notingModel('- Falcon ships 2026-12-15', 'Noted.', { flushFails: () => fail });

    const res = await runTurn('Falcon ships on 2026-12-15', s.opts(llm));

    expect(res.reply).toBe('Noted.');
    expect(replyLines(s.file)).toEqual(['user', 'assistant']);
    const [failed] = flushEvents(s.events);
    expect(failed).toMatchObject({ kind: 'flush', ran: false });
    expect(failed?.warning).toContain('503 Service Unavailable');
    // Not recorded as this cycle's flush, so it is tried again.
    expect(flushRecorded(s.sessionsIndex)).toBeUndefined();

    fail = false;
    s.events.length = 0;
    const next = await runTurn('and the launch party is on the 16th', s.opts(llm));
    expect(next.reply).toBe('Noted.');
    expect(flushEvents(s.events)).toEqual([{ kind: 'flush', ran: true, reason: expect.any(String), wrote: [NOTE] }]);
    expect(fs.readFileSync(path.join(s.workspace, NOTE), 'utf8')).toBe('- Falcon ships 2026-12-15\n');
    expect(flushRecorded(s.sessionsIndex)).toBe(0);
  });

  it('a daily note that cannot be written (memory/ is a file): the turn answers and the warning names the note', async () => {
    // Tests run as root, where a read-only mode does not stop a write: a file where the
    // folder should be does (ENOTDIR) for every user.
    const s = setup({ memory: 'not a folder\n' });
    const llm = notingModel('- Falcon ships 2026-12-15', 'Noted.');

    const res = await runTurn('Falcon ships on 2026-12-15', s.opts(llm));

    expect(res.reply).toBe('Noted.');
    expect(replyLines(s.file)).toEqual(['user', 'assistant']);
    const warnings = flushEvents(s.events).map((e) => e.warning);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(NOTE);
    expect(flushRecorded(s.sessionsIndex)).toBeUndefined();
  });

  it("a daily note the flush's write tool refuses (a folder where the note should be): the turn answers, the warning names the note, the flush is not recorded", async () => {
    const s = setup();
    fs.mkdirSync(path.join(s.workspace, NOTE), { recursive: true });
    const llm = notingModel('- Falcon ships 2026-12-15', 'Noted.');

    const res = await runTurn('Falcon ships on 2026-12-15', s.opts(llm));

    expect(res.reply).toBe('Noted.');
    const [ev] = flushEvents(s.events);
    expect(ev).toMatchObject({ kind: 'flush', ran: true, wrote: [] });
    expect(ev?.warning).toContain(NOTE);
    expect(ev?.warning).toMatch(/not a regular file/);
    expect(flushRecorded(s.sessionsIndex)).toBeUndefined();

    // Once the note can be written, the next turn's flush does it and is recorded.
    fs.rmdirSync(path.join(s.workspace, NOTE));
    s.events.length = 0;
    await runTurn('anything else?', s.opts(llm));
    expect(flushEvents(s.events)).toEqual([{ kind: 'flush', ran: true, reason: expect.any(String), wrote: [NOTE] }]);
    expect(flushRecorded(s.sessionsIndex)).toBe(0);
  });

  it('a cancel during the flush still stops the turn', async () => {
    const s = setup();
    const ac = new AbortController();
    const llm = new ScriptedLlm((req) => {
      if (isFlushRequest(req)) {
        ac.abort();
        throw new DOMException('cancelled', 'AbortError');
      }
      return { text: 'Noted.' };
    });
    await expect(runTurn('hello', s.opts(llm, FLUSH_NOW, { signal: ac.signal }))).rejects.toMatchObject({ name: 'AbortError' });
    expect(flushEvents(s.events)).toEqual([]);
  });
});

describe('the memory flush is sent the pruned context', () => {
  it('once the cache TTL expired, the flush request carries the trimmed tool results, exactly as the reply request does', async () => {
    const big = 'log line with details\n'.repeat(1500); // ~33,000 chars
    const s = setup({ 'big.log': big });
    const quiet = { reserveTokens: 1000, reserveTokensFloor: 1000, memoryFlush: { enabled: false } };
    const llm = new ScriptedLlm((req) => {
      if (isFlushRequest(req)) return { text: 'NO_REPLY' };
      const last = req.messages[req.messages.length - 1]!;
      return last.role === 'user' ? { toolCalls: [{ name: 'read', arguments: { path: 'big.log' } }] } : { text: 'Read it.' };
    }, 60_000);
    for (let i = 0; i < 4; i++) {
      await runTurn(`read the log (${i})`, s.opts(llm, quiet));
      s.clock.t += 60_000; // inside the 5-minute TTL: no pruning yet
    }
    s.clock.t += 10 * 60_000; // the prompt cache has expired: the next calls are pruned
    const before = llm.requests.length;
    await runTurn('and once more', s.opts(llm, { reserveTokens: 1000, reserveTokensFloor: 1000, ...FLUSH_NOW }));

    const turn = llm.requests.slice(before);
    const flush = turn.find(isFlushRequest);
    const reply = turn.find((r) => !isFlushRequest(r));
    expect(flush && reply).toBeTruthy();
    const results = (ms: readonly Message[]) => ms.filter((m): m is Extract<Message, { role: 'toolResult' }> => m.role === 'toolResult').map((m) => (m.content[0] as { text: string }).text);
    const flushed = results(flush!.messages);
    expect(flushed).toHaveLength(4);
    // The oldest result was trimmed or cleared, the newest is whole: pruned, not the file's text.
    expect(flushed[0]).not.toBe(big);
    expect(flushed[0]).toMatch(/\[Tool result trimmed: kept first 1500 chars and last 1500 chars of \d+ chars\.\]$|^\[Old tool result content cleared\]$/);
    expect(flushed[3]).toBe(big);
    // What the flush continues is what the reply was sent (then the flush's own prompt).
    expect(flush!.messages.slice(0, reply!.messages.length)).toEqual(reply!.messages);
  });
});
