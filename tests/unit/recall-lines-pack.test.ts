/**
 * The recall section's packer (openclaw/recall-pack.ts) over seeded random hits: it never
 * exceeds the budget as OpenClaw estimates tokens, never shows a line twice (by file line or by
 * its words), cites every line it shows exactly; and OpenClaw's token estimate as reproduced.
 */
import { describe, expect, it } from 'vitest';
import type { PickedLine, SearchResult } from '../../shared/types/search';
import { lineKey, packSection } from '../../electron/engine/openclaw/recall-pack';
import { openclawStringChars, openclawTokens } from '../../electron/engine/openclaw/token-estimate';
import { renderSection } from '../../electron/engine/openclaw/recall';

/** mulberry32: a small seeded PRNG, so a failure replays. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['kayak', 'port', '8080', 'deploy', 'Lisbon', 'ferry', 'budget', '会議', '予算', 'otter', 'alarm', 'garden', 'key', 'shed', '<tag>', '𠀋', 'émigré'];

function randomHits(r: () => number): SearchResult[] {
  const hits: SearchResult[] = [];
  const n = 1 + Math.floor(r() * 14);
  for (let h = 0; h < n; h++) {
    // Some hits share a file (overlapping chunks of one note); some repeat another's words.
    const path = `memory/note-${Math.floor(r() * 5)}.md`;
    const start = 1 + Math.floor(r() * 40);
    const lines: PickedLine[] = [];
    let line = start;
    for (let k = 0; k < 1 + Math.floor(r() * 8); k++) {
      line += 1 + Math.floor(r() * 3);
      const len = 1 + Math.floor(r() * (r() < 0.1 ? 400 : 25));
      const text = Array.from({ length: len }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
      const role = r() < 0.25 ? 'context' : 'match';
      lines.push({ line, text: r() < 0.1 ? `**Ann:** ${text}` : text, score: role === 'match' ? Math.round(r() * 1000) / 1000 : 0, role });
    }
    hits.push({ path, startLine: start, endLine: line, score: r(), snippet: lines.map((l) => l.text).join('\n'), source: 'memory', citation: `${path}#L${start}-L${line}`, lines, ...(r() < 0.5 ? { day: '2024-05-08' } : {}) });
  }
  return hits.sort((a, b) => b.score - a.score);
}

/** The section's runs: `[path#La-Lb]` then exactly b − a + 1 lines. Returns every (path, line, text) shown. */
function shownLines(section: string): { path: string; line: number; text: string }[] {
  const rows = section.split('\n');
  const out: { path: string; line: number; text: string }[] = [];
  const head = rows.findIndex((l) => /^\[[^\]]+#L\d+/.test(l));
  if (head < 0) return out;
  for (let i = head; i < rows.length - 1; ) {
    const m = /^\[([^\]#]+)#L(\d+)(?:-L(\d+))?\]/.exec(rows[i]!);
    if (!m) throw new Error(`line ${i} of the section is not a citation: ${rows[i]}`);
    const a = Number(m[2]);
    const b = Number(m[3] ?? m[2]);
    for (let k = a; k <= b; k++) out.push({ path: m[1]!, line: k, text: rows[i + 1 + k - a]! });
    i += 2 + b - a;
  }
  return out;
}

describe('the recall packer', () => {
  it('never exceeds the budget, never repeats a line, cites every line it shows (500 seeded cases)', () => {
    for (let seed = 1; seed <= 500; seed++) {
      const r = rng(seed);
      const hits = randomHits(r);
      const budget = [60, 120, 300, 600, 1200][Math.floor(r() * 5)]!;
      const { text, used } = renderSection(hits, budget, 'kayak port deploy 会議');
      if (!text) continue;
      expect(openclawTokens(text), `seed ${seed}`).toBeLessThanOrEqual(budget);
      expect(text.startsWith('<relevant-memories>\n') && text.endsWith('\n</relevant-memories>')).toBe(true);
      const shown = shownLines(text);
      expect(shown.length, `seed ${seed}`).toBeGreaterThan(0);
      const at = shown.map((s) => `${s.path}#${s.line}`);
      expect(new Set(at).size, `seed ${seed}: a file line twice`).toBe(at.length);
      const keys = shown.map((s) => lineKey(s.text.replaceAll('&lt;', '<').replaceAll('&gt;', '>'))).filter(Boolean);
      expect(new Set(keys).size, `seed ${seed}: the same words twice`).toBe(keys.length);
      expect(text).not.toMatch(/<tag>/); // memory text stays escaped
      for (const s of shown) expect(used.some((h) => h.path === s.path)).toBe(true);
    }
  });

  it('stays silent when no line answers well, and shows a session line with its date', () => {
    const frame = { head: 'H\n', tail: 'T', escape: (s: string) => s };
    const weak: SearchResult = { path: 'memory/a.md', startLine: 1, endLine: 2, score: 0.5, snippet: 'x', source: 'memory', citation: 'memory/a.md#L1-L2', lines: [{ line: 1, text: 'a weak line', score: 0.2, role: 'match' }] };
    expect(packSection([weak], 600, frame).text).toBe('');
    const sess: SearchResult = { path: 'sessions/abc.jsonl', startLine: 80, endLine: 90, score: 0.9, snippet: 'x', source: 'sessions', citation: 'sessions/abc.jsonl#L80-L90', day: '2026-11-30', lines: [{ line: 88, text: 'User: the port is 8443', score: 0.9, role: 'match' }] };
    expect(packSection([sess, weak], 600, frame).text).toBe('H\n[sessions/abc.jsonl#L88] (2026-11-30)\nUser: the port is 8443\n[memory/a.md#L1]\na weak line\nT');
  });

  it("counts tokens as OpenClaw 2026.9's estimate does (CJK and supplementary ideographs weighted)", () => {
    expect(openclawStringChars('plain ascii')).toBe(11);
    expect(openclawStringChars('会議')).toBe(8); // common CJK: 4 each
    expect(openclawStringChars('𠀋')).toBe(16); // a supplementary ideograph: 16
    expect(openclawStringChars('é')).toBe(1);
    expect(openclawTokens('abcde')).toBe(2);
  });
});
