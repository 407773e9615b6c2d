import { describe, expect, it } from 'vitest';
import { chunkLines, chunkMarkdown, hardSplit } from '../../electron/engine/index/chunker';
import { contextLine, dateFromPath, headingsByLine } from '../../electron/engine/index/chunk-context';
import { prepareChunks } from '../../electron/engine/index/prepare';
import { renderSession } from '../../electron/engine/index/session-text';
import { redactSecrets } from '../../electron/engine/util/redact';
import { weightedLength } from '../../shared/text/cjk';

const opts = { tokens: 400, overlap: 80 };

/** Lines "line 001 xxxx…" of 100 chars each (plus newline = 101 weighted). */
function lines(n: number, width = 100): string {
  return Array.from({ length: n }, (_, i) => `line ${String(i + 1).padStart(3, '0')} `.padEnd(width, 'x')).join('\n');
}

describe('chunkMarkdown', () => {
  it('cuts at ~1,600 chars on line boundaries and carries ~320 chars of overlap', () => {
    const chunks = chunkMarkdown(lines(40), opts);
    // 15 lines × 101 = 1,515 ≤ 1,600; a 16th line would exceed it.
    expect(chunks[0]).toMatchObject({ startLine: 1, endLine: 15 });
    for (const c of chunks) expect(weightedLength(c.text) + c.text.split('\n').length).toBeLessThanOrEqual(1600);
    // Overlap: the next chunk starts with the last lines of the previous one (≥ 320 chars = 4 lines).
    expect(chunks[1]!.startLine).toBe(12);
    expect(chunks[1]!.text.startsWith(chunks[0]!.text.split('\n').slice(-4).join('\n'))).toBe(true);
    expect(chunks.at(-1)!.endLine).toBe(40);
    // Every line is in some chunk.
    const covered = new Set<number>();
    for (const c of chunks) for (let l = c.startLine; l <= c.endLine; l++) covered.add(l);
    expect(covered.size).toBe(40);
  });

  it('keeps line numbers 1-based and the text exact, hash included', () => {
    const [c] = chunkMarkdown('# Title\n\nhello world\n', opts);
    // Three lines and a final newline: the chunk is lines 1-3 (there is no line 4 to cite).
    expect(c).toMatchObject({ startLine: 1, endLine: 3, text: '# Title\n\nhello world' });
    expect(c!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('hard-splits a line longer than a chunk; the pieces keep the line number', () => {
    const long = 'a'.repeat(4000);
    const chunks = chunkMarkdown(`first\n${long}\nlast`, opts);
    const pieces = chunks.filter((c) => c.text.includes('aaaa'));
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    for (const c of pieces) expect(c.text.length).toBeLessThanOrEqual(1600);
    expect(chunks.some((c) => c.startLine === 2 && c.endLine === 2)).toBe(true);
    expect(chunks.map((c) => c.text).join('').replace(/[^a]/g, '').length).toBeGreaterThanOrEqual(4000);
  });

  it('weights CJK characters as ~one token each (4 chars), so CJK chunks hold ~400 characters', () => {
    const zh = Array.from({ length: 30 }, (_, i) => `第${i}行：我们讨论了预算和发布计划的细节`).join('\n');
    const chunks = chunkMarkdown(zh, opts);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(weightedLength(c.text)).toBeLessThanOrEqual(1600);
      expect(Array.from(c.text).length).toBeLessThanOrEqual(450); // vs ~1,600 for English
    }
    expect(weightedLength('会議')).toBe(8);
    expect(weightedLength('ab')).toBe(2);
  });

  it('never splits a surrogate pair when hard-splitting', () => {
    const emoji = '😀'.repeat(1000); // 2,000 UTF-16 units
    for (const piece of hardSplit(emoji, 33)) {
      expect(piece.length % 2).toBe(0);
      expect(piece).toMatch(/^(😀)+$/u);
    }
    const chunks = chunkMarkdown(`x\n${'𠀋'.repeat(900)}`, opts); // CJK Ext-B, surrogate pairs, weight 4
    for (const c of chunks) expect(() => encodeURIComponent(c.text)).not.toThrow();
  });

  it('drops chunks that are only blank lines', () => {
    expect(chunkMarkdown('\n\n\n', opts)).toEqual([]);
  });

  it('accepts logical lines with their own numbers (transcripts)', () => {
    const out = chunkLines([{ text: 'User: hi', lineNo: 2 }, { text: 'Assistant: hello', lineNo: 5 }], opts);
    expect(out).toEqual([expect.objectContaining({ startLine: 2, endLine: 5, text: 'User: hi\nAssistant: hello' })]);
  });
});

describe('chunk context', () => {
  it('takes the date from a daily note file name and rejects impossible dates', () => {
    expect(dateFromPath('memory/2024-05-08.md')).toBe('2024-05-08');
    expect(dateFromPath('memory/2024-05-08-standup.md')).toBe('2024-05-08');
    expect(dateFromPath('memory/2024-02-30.md')).toBeNull();
    expect(dateFromPath('MEMORY.md')).toBeNull();
  });

  it('finds the nearest heading above each line, ignoring # inside code fences', () => {
    const h = headingsByLine(['# Top', 'a', '## Deploy', '```sh', '# not a heading', '```', 'b']);
    expect(h[2]).toBe('Top');
    expect(h[7]).toBe('Deploy');
  });

  it('indexes a chunk cut from the middle of a daily note with its date and heading', () => {
    const text = `# Standup\n\n## Budget review\n${lines(60)}`;
    const chunks = prepareChunks({ abs: '/x', path: 'memory/2024-05-08.md', source: 'memory' }, text, 0, opts);
    const mid = chunks[2]!;
    expect(mid.startLine).toBeGreaterThan(10);
    expect(mid.body.split('\n')[0]).toBe(contextLine('2024-05-08', 'Budget review'));
    expect(mid.body).toContain('May 2024');
    expect(mid.evergreen).toBe(false);
    const evergreen = prepareChunks({ abs: '/x', path: 'MEMORY.md', source: 'memory' }, '# Prefs\ndark mode', 0, opts);
    expect(evergreen[0]!.evergreen).toBe(true);
  });
});

describe('sessions source', () => {
  const jsonl = [
    JSON.stringify({ type: 'session', version: 3, id: 's1', timestamp: '2024-05-01T10:00:00Z', cwd: '/' }),
    JSON.stringify({ type: 'message', id: 'a1', parentId: null, timestamp: '2024-05-01T10:00:01Z', message: { role: 'user', content: 'my key is sk-proj-abcdefghijklmnopqrstuvwx123 please\nremember it', timestamp: 1 } }),
    'not json',
    JSON.stringify({ type: 'message', id: 'a2', parentId: 'a1', timestamp: '2024-05-01T10:00:02Z', message: { role: 'assistant', content: [{ type: 'thinking', thinking: 'secret plan' }, { type: 'text', text: 'Noted.' }, { type: 'toolCall', id: 't', name: 'x', arguments: {} }] } }),
    JSON.stringify({ type: 'message', id: 'a3', parentId: 'a2', timestamp: '2024-05-01T10:00:03Z', message: { role: 'toolResult', toolCallId: 't', toolName: 'x', content: [{ type: 'text', text: 'tool output' }] } }),
  ].join('\n');

  it('renders user/assistant text with JSONL line numbers, skipping thinking, tools and bad lines', () => {
    const { lines: out } = renderSession(jsonl);
    expect(out).toEqual([
      { text: 'User: my key is [REDACTED] please remember it', lineNo: 2 },
      { text: 'Assistant: Noted.', lineNo: 4 },
    ]);
  });

  it('indexes exactly the entries the transcript parser accepts (a line the sessions view reports as malformed is skipped)', () => {
    const withBad = [
      jsonl,
      JSON.stringify({ type: 'message', parentId: 'a3', message: { role: 'user', content: 'no id on this line' } }),
      JSON.stringify({ type: 'message', id: 'a2', parentId: 'a3', message: { role: 'user', content: 'a second a2' } }),
      JSON.stringify({ type: 'compaction', id: 'c1', parentId: 'a3', summary: 'Decided: ship Friday', firstKeptEntryId: 'a3', tokensBefore: 10 }),
    ].join('\n');
    expect(renderSession(withBad).lines).toEqual([
      { text: 'User: my key is [REDACTED] please remember it', lineNo: 2 },
      { text: 'Assistant: Noted.', lineNo: 4 },
      { text: 'Summary: Decided: ship Friday', lineNo: 8 },
    ]);
  });

  it('redacts API keys, bearer tokens, AWS keys and secret assignments', () => {
    const s = redactSecrets(
      'a sk-ant-api03-AAAAAAAAAAAAAAAAAAAA b Authorization: Bearer abc.def-ghi_jkl123456 c AKIAIOSFODNN7EXAMPLE d aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY e ghp_abcdefghijklmnopqrstuvwxyz0123456789 f api_key: "hunter2hunter2" g AIzaSyA-1234567890abcdefghijklmnopqrstu',
    );
    expect(s).not.toMatch(/sk-ant|abc\.def|AKIAIOSFODNN7|wJalrXUtn|ghp_|hunter2|AIzaSy/);
    expect(s).toContain('Bearer [REDACTED]');
    expect(s).toContain('aws_secret_access_key=[REDACTED]');
    expect(s).toContain('api_key: [REDACTED]');
  });
});

describe('line numbers at the end of a file', () => {
  it('a final newline does not add a line: a 5-line file cites L1-L5', async () => {
    const { chunkMarkdown } = await import('../../electron/engine/index/chunker');
    const chunks = chunkMarkdown('# T\n\nalpha one\nbeta two\ngamma three\n', { tokens: 400, overlap: 80 });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ startLine: 1, endLine: 5 });
  });
});
