/**
 * One text module (shared/text) for pruning, chunking, the keyword index, MMR and the
 * highlighter: Korean (precomposed syllables and conjoining jamo) and CJK Extension B weigh
 * and split the same everywhere, and pruning counts characters exactly as OpenClaw does.
 */
import { describe, expect, it } from 'vitest';
import { isValidElement, type ReactNode } from 'react';
import type { Message, ToolResultMessage } from '../../shared/types/messages';
import { openclawWeightedLength, weightedLength } from '../../shared/text/cjk';
import { ftsIndexText, similarityTokens } from '../../shared/text/tokens';
import { ContextPruningSchema } from '../../electron/engine/config/schema';
import { prune } from '../../electron/engine/pruning';
import { chunkMarkdown, hardSplit } from '../../electron/engine/index/chunker';
import { highlight, queryTerms } from '../../renderer/src/pages/search/highlight';
import { interpretInstructions } from '../../electron/engine/compaction/instructions';

const EXT_B = '\u{2000B}'; // 𠀋, two UTF-16 units, one ideograph
const JAMO = '\u1100\u1101'; // ᄀᄁ, conjoining (NFD) jamo
const HANGUL = '회의록'; // precomposed syllables

const NOW = Date.parse('2025-03-02T12:00:00Z');
/** charsBefore of one old tool result holding `text`, as the prune preview reports it. */
function pruneChars(text: string): number {
  const tool: ToolResultMessage = { role: 'toolResult', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text }], isError: false };
  const a = (t: string): Message => ({ role: 'assistant', content: [{ type: 'text', text: t }] });
  const msgs: Message[] = [{ role: 'user', content: 'start' }, a('call'), tool, a('1'), a('2'), a('3')];
  const r = prune(msgs, ContextPruningSchema.parse({}), { contextWindowTokens: 1000, now: NOW, lastCallAt: NOW - 600_000 });
  return r.diff.toolResults[0]!.charsBefore;
}

const marked = (nodes: ReactNode[]): string[] => nodes.filter(isValidElement).map((n) => String((n.props as { children: unknown }).children));

describe('weights: one rule, Korean and Extension B included', () => {
  it('a CJK code point weighs 4 whatever its UTF-16 length; conjoining jamo weigh 1', () => {
    expect(weightedLength(HANGUL)).toBe(12);
    expect(weightedLength(EXT_B)).toBe(4);
    expect(weightedLength(EXT_B.repeat(10))).toBe(40);
    expect(weightedLength(JAMO)).toBe(2);
    expect(weightedLength(`ab ${HANGUL} ${EXT_B}`)).toBe(3 + 12 + 1 + 4);
  });

  it('pruning counts what OpenClaw counts: 漢 4, 𠀋 4 (not 2), ᄀ 1 (not 4)', () => {
    expect(pruneChars('漢'.repeat(300))).toBe(1200);
    expect(pruneChars(EXT_B.repeat(300))).toBe(1200);
    expect(pruneChars(JAMO.repeat(150))).toBe(300);
    expect(pruneChars(HANGUL.repeat(100))).toBe(1200);
  });

  it("OpenClaw's rule is kept apart only where it differs: Ext G and halfwidth kana", () => {
    for (const s of ['漢字', HANGUL, EXT_B, JAMO, 'plain', '，。「」', 'Ａ１']) expect(openclawWeightedLength(s)).toBe(weightedLength(s));
    expect(openclawWeightedLength('\u{30000}')).toBe(2);
    expect(weightedLength('\u{30000}')).toBe(4);
    expect(openclawWeightedLength('ｱ')).toBe(1);
  });
});

describe('chunking, keyword index and MMR split Korean and Extension B by code point', () => {
  it('a long Extension B line is hard-split between characters, 4 each, never inside a pair', () => {
    const parts = hardSplit(EXT_B.repeat(500), 1600);
    expect(parts.map((p) => Array.from(p).length)).toEqual([400, 100]);
    expect(parts.join('')).toBe(EXT_B.repeat(500));
    expect(parts.every((p) => !/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(p))).toBe(true);
  });

  it('a Korean note is packed like a Chinese one: about 400 syllables a chunk, not 1,600', () => {
    const note = (ch: string) => Array.from({ length: 10 }, () => ch.repeat(99)).join('\n');
    const lines = (ch: string) => chunkMarkdown(note(ch), { tokens: 400, overlap: 0 }).map((c) => [c.startLine, c.endLine]);
    expect(lines('가')).toEqual([[1, 4], [5, 8], [9, 10]]);
    expect(lines('가')).toEqual(lines('漢'));
  });

  it('the index and MMR see Hangul syllables and Ext B ideographs as uni- and bigrams', () => {
    const tokens = ftsIndexText(`회의 ${EXT_B}國`).trim().split(/\s+/);
    expect(tokens).toEqual(['회', '의', '회의', EXT_B, '國', `${EXT_B}國`]);
    expect(similarityTokens('Deploy 회의록')).toEqual(['deploy', '회', '의', '록', '회의', '의록']);
    // Conjoining jamo are letters, not CJK: one word, not grams.
    expect(similarityTokens(JAMO)).toEqual([JAMO]);
  });
});

describe('highlighting marks what the index matched', () => {
  it('marks Hangul syllables and whole Extension B ideographs', () => {
    expect(marked(highlight('오늘 회의록 정리', queryTerms('회의')))).toEqual(['회', '의']);
    expect(marked(highlight(`地名 ${EXT_B}町 です`, queryTerms(`${EXT_B}町`)))).toEqual([EXT_B, '町']);
    expect(queryTerms('ㅋㅋ')).toEqual(['ㅋ']);
  });

  it('every CJK term the highlighter looks for is a token the index holds', () => {
    const q = `회의록 ${EXT_B}屋 カタカナ`;
    const index = new Set(ftsIndexText(q).split(/\s+/));
    for (const t of queryTerms(q)) expect(index.has(t)).toBe(true);
  });

  it('uses the same stop words as the keyword query', () => {
    expect(queryTerms('please tell me about the deploy before lunch')).toEqual(['deploy', 'lunch']);
  });

  it("and so does a compaction's focus instruction", () => {
    expect(interpretInstructions('focus on what we did before the migration').focus).toEqual(['migration']);
    expect(interpretInstructions('focus on every detail of the deploy').focus).toEqual(['detail', 'deploy']);
  });
});
