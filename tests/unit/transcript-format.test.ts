import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTranscript } from '../../electron/engine/transcript/read';
import { buildContext, COMPACTION_SUMMARY_PREFIX } from '../../electron/engine/transcript/context';
import { estimateMessageTokens, estimateTokens, IMAGE_CHARS } from '../../electron/engine/transcript/tokens';
import { openSessionFile } from '../../electron/engine/transcript/session-file';
import { createTranscriptFile } from '../../electron/engine/transcript/append';
import { parseTranscript } from '../../electron/engine/transcript/parse';
import { copyFixture, FIXTURE_TRANSCRIPT } from '../helpers/fixtures';
import { tmpDir } from '../helpers/tmp';

describe('transcript: the OpenClaw fixture', () => {
  it('loads every entry type and reports the malformed line with file and line number', () => {
    const t = readTranscript(FIXTURE_TRANSCRIPT);
    expect(t.header).toMatchObject({ type: 'session', version: 3, id: '5f0c2a1e-7b3d-4c8e-9a61-2d4f8b0e1c37' });
    expect(t.malformed).toHaveLength(1);
    expect(t.malformed[0]).toMatchObject({ file: FIXTURE_TRANSCRIPT, line: 18 });
    expect(t.entries.map((e) => e.type)).toEqual([
      'model_change', 'thinking_level_change', 'message', 'message', 'message', 'message', 'message', 'custom', 'message',
      'message', 'message', 'message', 'compaction', 'message', 'message', 'message', 'x_cairn_future', 'custom',
      'message', 'message', 'label', 'session_info', 'custom_message', 'message',
    ]);
    expect(t.entryLines[0]).toBe(2);
    expect(t.entryLines[16]).toBe(19); // the unknown entry, right after the torn line
  });
});

describe('transcript: context rebuild', () => {
  it('starts from the newest compaction: summary message, kept entries, then everything after', () => {
    const t = readTranscript(FIXTURE_TRANSCRIPT);
    const ctx = buildContext(t);
    expect(ctx.compaction?.id).toBe('a000000d');
    const first = ctx.messages[0];
    expect(first?.role).toBe('user');
    const text = (first?.content as { text: string }[])[0]?.text ?? '';
    expect(text.startsWith(COMPACTION_SUMMARY_PREFIX)).toBe(true);
    expect(text).toBe(
      `The conversation history before this point was compacted into the following summary:\n\n<summary>\n${ctx.compaction?.summary}\n</summary>`,
    );
    // firstKeptEntryId a000000b .. compaction, then after it; the torn line's child falls back
    // to the previous entry, so nothing after the compaction is lost.
    expect(ctx.sources.map((s) => s.entryId)).toEqual([
      'a000000d', 'a000000b', 'a000000c', 'a000000e', 'a000000f', 'a0000010', 'a0000013', 'a0000014', 'a0000017', 'a0000018',
    ]);
    expect(ctx.sources[8]?.kind).toBe('custom_message');
    expect(ctx.messages[8]).toMatchObject({ role: 'user', content: 'Reminder: the deploy window closes at 18:00 UTC.' });
  });

  it('without a compaction, the whole branch is sent', () => {
    const dir = tmpDir();
    const file = path.join(dir, 's.jsonl');
    createTranscriptFile(file, { id: 's', timestamp: '2025-01-01T00:00:00.000Z', cwd: dir });
    const s = openSessionFile(file);
    s.appendMessage({ role: 'user', content: 'hi' });
    s.appendCustom('openclaw.cache-ttl', { timestamp: 1, provider: 'p', modelId: 'm' });
    s.appendMessage({ role: 'assistant', content: [{ type: 'text', text: 'hello' }] });
    const ctx = buildContext(readTranscript(file));
    expect(ctx.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(ctx.compaction).toBeUndefined();
  });
});

describe('transcript: token estimate (SPEC §2)', () => {
  it('counts text, thinking, tool name + JSON args and images as 4,800 chars; never details', () => {
    expect(estimateMessageTokens({ role: 'user', content: 'abcde' })).toBe(2);
    expect(
      estimateMessageTokens({
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'x'.repeat(8) },
          { type: 'text', text: 'y'.repeat(4) },
          { type: 'toolCall', id: 'c', name: 'read', arguments: { path: 'a' } },
        ],
      }),
    ).toBe(Math.ceil((8 + 4 + 4 + JSON.stringify({ path: 'a' }).length) / 4));
    const withDetails = {
      role: 'toolResult' as const,
      toolCallId: 'c',
      toolName: 'read',
      content: [{ type: 'text' as const, text: 'abcd' }, { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' }],
      details: { huge: 'z'.repeat(100000) },
      isError: false,
    };
    expect(estimateMessageTokens(withDetails)).toBe(Math.ceil((4 + IMAGE_CHARS) / 4));
    expect(estimateTokens([withDetails, { role: 'user', content: 'abcde' }])).toBe(Math.ceil((4 + IMAGE_CHARS) / 4) + 2);
  });
});

describe('transcript: appends', () => {
  it('appends durable entries with 8-hex ids chained by parentId', () => {
    const { transcript } = copyFixture();
    const s = openSessionFile(transcript, { now: () => new Date('2025-03-02T12:00:00.000Z') });
    const [a, b] = s.append({ type: 'message', message: { role: 'user', content: 'one' } }, { type: 'message', message: { role: 'user', content: 'two' } });
    expect(a?.id).toMatch(/^[0-9a-f]{8}$/);
    expect(a?.parentId).toBe('a0000018');
    expect(b?.parentId).toBe(a?.id);
    expect(a?.timestamp).toBe('2025-03-02T12:00:00.000Z');
    const t = readTranscript(transcript);
    expect(t.entries.at(-1)?.id).toBe(b?.id);
    expect(t.malformed).toHaveLength(1);
  });

  it('after a torn final line, the next append starts on a fresh line and the torn line stays', () => {
    const dir = tmpDir();
    const file = path.join(dir, 's.jsonl');
    createTranscriptFile(file, { id: 's', timestamp: '2025-01-01T00:00:00.000Z', cwd: dir });
    const s = openSessionFile(file);
    s.appendMessage({ role: 'user', content: 'kept' });
    fs.appendFileSync(file, '{"type":"message","id":"deadbeef","par'); // a writer killed mid-line
    const torn = readTranscript(file);
    expect(torn.malformed).toHaveLength(1);
    expect(torn.malformed[0]?.line).toBe(3);
    expect(torn.malformed[0]?.error).toMatch(/torn final line/);
    const s2 = openSessionFile(file);
    s2.appendMessage({ role: 'user', content: 'after' });
    const t = readTranscript(file);
    expect(t.entries.map((e) => (e.message as { content: string }).content)).toEqual(['kept', 'after']);
    expect(t.rawLines[2]).toBe('{"type":"message","id":"deadbeef","par');
    expect(t.malformed[0]?.line).toBe(3);
  });

  it('reports a line that is JSON but not an entry', () => {
    const t = parseTranscript('f.jsonl', '{"type":"session","version":3,"id":"x","timestamp":"t","cwd":"/"}\n[1,2]\n{"type":"message"}\n\n');
    expect(t.malformed.map((m) => m.line)).toEqual([2, 3]);
    expect(t.entries).toHaveLength(0);
  });
});

describe('transcript: odd but parseable messages', () => {
  it('a tool result or assistant message whose content is not a block array does not break rebuild, pruning or compaction', async () => {
    const { serializeMessage } = await import('../../electron/engine/compaction/serialize');
    const { prune } = await import('../../electron/engine/pruning');
    const { ContextPruningSchema } = await import('../../electron/engine/config/schema');
    const odd = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'plain string reply' },
      { role: 'toolResult', toolCallId: 'c', toolName: 'x', content: 'plain string result', isError: false },
    ] as unknown as import('../../shared/types/messages').Message[];
    expect(odd.map((m) => serializeMessage(m))).toEqual(['[User]: hi', '', '[Tool result]: plain string result']);
    const r = prune(odd, ContextPruningSchema.parse({ keepLastAssistants: 0 }), { contextWindowTokens: 1, now: 1e9, lastCallAt: 1 });
    expect(r.diff.toolResults[0]?.charsBefore).toBe('plain string result'.length);
  });
});

describe('transcript: the open session stays in step with the file', () => {
  it('appends update the in-memory transcript exactly as a re-read would see it', () => {
    const { transcript } = copyFixture();
    fs.appendFileSync(transcript, '{"type":"message","id":"torn0001"'); // a torn last line first
    const s = openSessionFile(transcript);
    s.appendMessage({ role: 'user', content: 'one' });
    s.append({ type: 'custom', customType: 'openclaw.cache-ttl', data: { timestamp: 1 } }, { type: 'message', message: { role: 'user', content: 'ü two' } });
    const mem = s.transcript();
    const disk = readTranscript(transcript);
    expect(mem.bytes).toBe(fs.statSync(transcript).size);
    expect(mem.entries).toEqual(disk.entries);
    expect(mem.entryLines).toEqual(disk.entryLines);
    expect(mem.rawLines).toEqual(disk.rawLines);
    expect([...mem.byId]).toEqual([...disk.byId]);
  });

  it('another writer appending makes the in-memory copy stale (bytes no longer match)', () => {
    const { transcript } = copyFixture();
    const a = openSessionFile(transcript);
    const b = openSessionFile(transcript);
    b.appendMessage({ role: 'user', content: 'from b' });
    a.appendMessage({ role: 'user', content: 'from a' });
    expect(a.transcript().bytes).not.toBe(fs.statSync(transcript).size);
  });
});
