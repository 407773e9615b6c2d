/** Pruning (SPEC cache-ttl): the pure prune() rules, and prune.preview on a real state dir, which never writes. */
import { describe, expect, it } from 'vitest';
import type { Message, ToolResultMessage } from '../../shared/types/messages';
import { ContextPruningSchema, type ContextPruningSettings } from '../../electron/engine/config/schema';
import { prune, findLastCallAt, currentModel } from '../../electron/engine/pruning';
import { softTrimText } from '../../electron/engine/pruning/prune';
import { readTranscript } from '../../electron/engine/transcript/read';
import { buildContext } from '../../electron/engine/transcript/context';
import { createEngine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { copyFixture, FIXTURE_SESSION_ID } from '../helpers/fixtures';
import { freezeTree, snapshotTree } from '../helpers/tree-snapshot';

const settings = (over: Record<string, unknown> = {}): ContextPruningSettings => ContextPruningSchema.parse(over);
const NOW = Date.parse('2025-03-02T12:00:00Z');
const EXPIRED = NOW - 10 * 60_000; // 10 minutes ago: the 5m TTL has passed

const user = (text: string): Message => ({ role: 'user', content: text });
const asst = (text = 'ok', call?: string): Message => ({
  role: 'assistant',
  content: call ? [{ type: 'text', text }, { type: 'toolCall', id: call, name: 'read', arguments: {} }] : [{ type: 'text', text }],
});
const result = (chars: number, toolName = 'read', fill = 'x'): ToolResultMessage => ({
  role: 'toolResult',
  toolCallId: `c${chars}`,
  toolName,
  content: [{ type: 'text', text: fill.repeat(chars) }],
  isError: false,
});

/** user, then `n` (assistant → tool result of `chars`), then 3 closing assistants. */
function session(n: number, chars: number, toolName = 'read'): Message[] {
  const m: Message[] = [user('start')];
  for (let i = 0; i < n; i++) m.push(asst('call', `c${i}`), result(chars, toolName));
  m.push(asst('a'), asst('b'), asst('c'));
  return m;
}

describe('prune: gates', () => {
  it('mode "off" changes nothing', () => {
    const msgs = session(10, 20000);
    const r = prune(msgs, settings({ mode: 'off' }), { contextWindowTokens: 10000, now: NOW, lastCallAt: EXPIRED });
    expect(r.messages).toBe(msgs);
    expect(r.diff.gate.reason).toBe('off');
    expect(r.diff.changed).toBe(false);
  });

  it('TTL not yet expired: nothing pruned', () => {
    const msgs = session(10, 20000);
    const r = prune(msgs, settings(), { contextWindowTokens: 10000, now: NOW, lastCallAt: NOW - 4 * 60_000 });
    expect(r.diff.gate).toMatchObject({ open: false, reason: 'ttl-not-expired' });
    expect(r.diff.toolResults.every((d) => d.action === 'kept')).toBe(true);
    expect(r.messages).toBe(msgs);
  });

  it('TTL expired exactly at the boundary opens the gate', () => {
    const msgs = session(10, 20000);
    const r = prune(msgs, settings(), { contextWindowTokens: 10000, now: NOW, lastCallAt: NOW - 5 * 60_000 });
    expect(r.diff.gate.open).toBe(true);
    expect(r.diff.changed).toBe(true);
  });

  it('no recorded call: gate closed', () => {
    const r = prune(session(10, 20000), settings(), { contextWindowTokens: 10000, now: NOW, lastCallAt: undefined });
    expect(r.diff.gate.reason).toBe('no-cache-touch');
    expect(r.diff.changed).toBe(false);
  });
});

describe('prune: soft trim and hard clear', () => {
  it('soft-trims with the exact SPEC text and note', () => {
    // 4 results × 5000 chars = 20000 chars; window 10000 tokens = 40000 chars → ratio ≈ 0.5.
    const msgs = session(4, 5000);
    const r = prune(msgs, settings({ hardClear: { enabled: false } }), { contextWindowTokens: 10000, now: NOW, lastCallAt: EXPIRED });
    const trimmed = r.messages[2] as ToolResultMessage;
    const text = (trimmed.content[0] as { text: string }).text;
    expect(text).toBe(`${'x'.repeat(1500)}\n...\n${'x'.repeat(1500)}\n\n[Tool result trimmed: kept first 1500 chars and last 1500 chars of 5000 chars.]`);
    expect(r.diff.toolResults[0]).toMatchObject({ index: 2, toolName: 'read', action: 'soft-trimmed', charsBefore: 5000, charsAfter: text.length });
    expect(r.diff.ratioAfter).toBeLessThan(r.diff.ratioBefore);
    // the input is untouched
    expect(((msgs[2] as ToolResultMessage).content[0] as { text: string }).text).toHaveLength(5000);
  });

  it('hard-clears oldest first until the ratio drops below hardClearRatio', () => {
    const msgs = session(20, 20000); // 400k chars of results
    const r = prune(msgs, settings(), { contextWindowTokens: 20000, now: NOW, lastCallAt: EXPIRED }); // window 80k chars
    const actions = r.diff.toolResults.map((d) => d.action);
    const firstKept = actions.indexOf('soft-trimmed');
    expect(actions.slice(0, firstKept).every((a) => a === 'cleared')).toBe(true);
    expect(firstKept).toBeGreaterThan(0);
    expect(r.diff.ratioAfter).toBeLessThan(0.5);
    // one fewer clear would have left the ratio at or above 0.5 (that result was soft-trimmed first)
    const trimmedLen = softTrimText(['x'.repeat(20000)], { maxChars: 4000, headChars: 1500, tailChars: 1500 })?.length ?? 0;
    const placeholderLen = '[Old tool result content cleared]'.length;
    expect(r.diff.ratioAfter + (trimmedLen - placeholderLen) / r.diff.charWindow).toBeGreaterThanOrEqual(0.5);
    expect((r.messages[2] as ToolResultMessage).content).toEqual([{ type: 'text', text: '[Old tool result content cleared]' }]);
    expect(r.diff.cleared).toBe(firstKept);
  });

  it('below softTrimRatio nothing happens; exactly at it, trimming starts', () => {
    // session(1, n): 'start'(5) + 'call'(4)+read(4)+{}(2) + n + 'a','b','c' (3)
    const base = 5 + 4 + 4 + 2 + 3;
    const window = 1000; // tokens → 4000 chars; 0.3 ratio = 1200 chars
    const under = prune(session(1, 1200 - base - 1), settings({ softTrim: { maxChars: 100, headChars: 10, tailChars: 10 } }), {
      contextWindowTokens: window, now: NOW, lastCallAt: EXPIRED,
    });
    expect(under.diff.ratioBefore).toBeLessThan(0.3);
    expect(under.diff.changed).toBe(false);
    expect(under.diff.toolResults[0]?.keptBecause).toBe('under-ratio');
    const at = prune(session(1, 1200 - base), settings({ softTrim: { maxChars: 100, headChars: 10, tailChars: 10 } }), {
      contextWindowTokens: window, now: NOW, lastCallAt: EXPIRED,
    });
    expect(at.diff.ratioBefore).toBe(0.3);
    expect(at.diff.toolResults[0]?.action).toBe('soft-trimmed');
  });

  it('hard clear at exactly hardClearRatio clears; minPrunableToolChars guards it', () => {
    const s = settings({ softTrim: { maxChars: 1_000_000 }, minPrunableToolChars: 0 });
    const base = 5 + 4 + 4 + 2 + 3;
    const at = prune(session(1, 2000 - base), s, { contextWindowTokens: 1000, now: NOW, lastCallAt: EXPIRED });
    expect(at.diff.ratioBefore).toBe(0.5);
    expect(at.diff.toolResults[0]?.action).toBe('cleared');
    const guarded = prune(session(1, 2000 - base), { ...s, minPrunableToolChars: 5000 }, { contextWindowTokens: 1000, now: NOW, lastCallAt: EXPIRED });
    expect(guarded.diff.toolResults[0]?.action).toBe('kept');
  });
});

describe('prune: protection rules', () => {
  it('fewer than keepLastAssistants assistant messages: nothing is pruned', () => {
    const msgs: Message[] = [user('u'), asst('a', 'c1'), result(50000), asst('b')];
    const r = prune(msgs, settings(), { contextWindowTokens: 1000, now: NOW, lastCallAt: EXPIRED });
    expect(r.diff.changed).toBe(false);
    expect(r.diff.toolResults[0]?.keptBecause).toBe('few-assistants');
  });

  it('protects results at or after the keepLastAssistants-th newest assistant', () => {
    const msgs: Message[] = [user('u'), asst('1', 'c1'), result(50000), asst('2', 'c2'), result(50000), asst('3'), asst('4')];
    const r = prune(msgs, settings(), { contextWindowTokens: 1000, now: NOW, lastCallAt: EXPIRED });
    expect(r.diff.toolResults.map((d) => [d.action, d.keptBecause ?? ''])).toEqual([
      ['soft-trimmed', ''],
      ['kept', 'recent'],
    ]);
  });

  it('never prunes before the first user message', () => {
    const msgs: Message[] = [asst('boot', 'b1'), result(50000), user('u'), asst('1', 'c1'), result(50000), asst('2'), asst('3'), asst('4')];
    const r = prune(msgs, settings(), { contextWindowTokens: 1000, now: NOW, lastCallAt: EXPIRED });
    expect(r.diff.toolResults[0]).toMatchObject({ index: 1, action: 'kept', keptBecause: 'before-first-user' });
    expect(r.diff.toolResults[1]?.action).not.toBe('kept');
    expect(r.messages[1]).toBe(msgs[1]);
  });

  it('removes the image of a prunable tool result and soft-trims its text (SPEC §3, OpenClaw 2026.9)', () => {
    const img: ToolResultMessage = {
      role: 'toolResult', toolCallId: 'i', toolName: 'read', isError: false,
      content: [{ type: 'text', text: 'y'.repeat(60000) }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }],
    };
    const msgs: Message[] = [user('u'), asst('1', 'i'), img, asst('2', 'c'), result(60000), asst('3'), asst('4'), asst('5')];
    const r = prune(msgs, settings(), { contextWindowTokens: 1000, now: NOW, lastCallAt: EXPIRED });
    const sent = (r.messages[2] as ToolResultMessage).content;
    expect(sent.some((b) => b.type === 'image')).toBe(false);
    expect(sent.map((b) => (b.type === 'text' ? b.text : '')).join('')).toContain('[image removed during context pruning]');
    expect(r.diff.toolResults[0]).toMatchObject({ action: 'soft-trimmed', imagesRemoved: 1, charsBefore: 60000 + 8000 });
    expect(r.diff.toolResults[0]?.charsAfter).toBeLessThan(4000);
    expect(r.diff.toolResults[1]?.action).toBe('soft-trimmed');
  });

  it('allow/deny globs are case-insensitive and deny wins', () => {
    const msgs: Message[] = [user('u')];
    for (const name of ['Read', 'bash', 'web_fetch', 'exec']) msgs.push(asst('c', name), result(60000, name));
    msgs.push(asst('1'), asst('2'), asst('3'));
    const r = prune(msgs, settings({ tools: { allow: ['read', 'WEB_*', 'bash'], deny: ['ba?h'] } }), {
      contextWindowTokens: 1000, now: NOW, lastCallAt: EXPIRED,
    });
    const by = Object.fromEntries(r.diff.toolResults.map((d) => [d.toolName, d.keptBecause ?? d.action]));
    expect(by).toEqual({ Read: 'soft-trimmed', bash: 'tool-not-prunable', web_fetch: 'soft-trimmed', exec: 'tool-not-prunable' });
  });

  it('CJK characters weigh 4 each in the ratio', () => {
    const cjk = prune(session(1, 300, 'read').map((m) => m), settings(), { contextWindowTokens: 1000, now: NOW, lastCallAt: EXPIRED });
    const msgs = session(1, 300);
    (msgs[2] as ToolResultMessage).content = [{ type: 'text', text: '漢'.repeat(300) }];
    const r = prune(msgs, settings(), { contextWindowTokens: 1000, now: NOW, lastCallAt: EXPIRED });
    expect(r.diff.toolResults[0]?.charsBefore).toBe(1200);
    expect(r.diff.totalCharsBefore - cjk.diff.totalCharsBefore).toBe(900);
  });

  it('names entry ids in the diff when given', () => {
    const msgs = session(2, 10);
    const ids = msgs.map((_, i) => `e${i}`);
    const r = prune(msgs, settings(), { contextWindowTokens: 1000, now: NOW, lastCallAt: EXPIRED, entryIds: ids });
    expect(r.diff.toolResults.map((d) => d.entryId)).toEqual(['e2', 'e4']);
  });
});

describe('prune on the OpenClaw fixture', () => {
  it('finds the last call from openclaw.cache-ttl for the provider/model, and prunes its context', () => {
    const { transcript } = copyFixture();
    const t = readTranscript(transcript);
    const model = currentModel(t.entries);
    expect(model).toEqual({ provider: 'anthropic', modelId: 'claude-sonnet-4-5' });
    expect(findLastCallAt(t.entries, model)).toBe(1740909720000);
    expect(findLastCallAt(t.entries, { provider: 'ANTHROPIC', modelId: 'Claude-Sonnet-4-5' })).toBe(1740909720000);
    expect(findLastCallAt(t.entries, { provider: 'openai', modelId: 'gpt-4o' })).toBeUndefined();
    const ctx = buildContext(t);
    const r = prune(ctx.messages, settings({ keepLastAssistants: 1, minPrunableToolChars: 0, softTrim: { maxChars: 10, headChars: 2, tailChars: 2 } }), {
      contextWindowTokens: 100, now: 1740909720000 + 6 * 60_000, lastCallAt: findLastCallAt(t.entries, model),
      entryIds: ctx.sources.map((s) => s.entryId),
    });
    expect(r.diff.changed).toBe(true);
    // The tool result carrying an image is prunable now (its image goes first; at this tiny window it is cleared).
    expect(r.diff.toolResults.find((d) => d.entryId === 'a0000014')?.action).toBe('cleared');
  });

  it('prune.preview on a writable state dir prunes and never touches the sessions dir (bytes, mtimes, no new files)', async () => {
    // Writable, so a write would be allowed: only the engine's own discipline keeps the file as it is.
    const { stateDir, sessionsDir } = copyFixture({ writable: true });
    const before = freezeTree(sessionsDir);
    const engine = createEngine({ stateDir });
    try {
      const r = await createDirectClient(engine)['prune.preview']({
        sessionId: FIXTURE_SESSION_ID, contextWindowTokens: 100, now: new Date(1740909720000 + 6 * 60_000).toISOString(),
        overrides: { keepLastAssistants: 1, minPrunableToolChars: 0, softTrim: { maxChars: 10, headChars: 2, tailChars: 2 } },
      });
      expect(r.diff.gate).toMatchObject({ open: true, lastCallAt: 1740909720000 });
      expect(r.diff.changed).toBe(true);
      expect(r.results.find((x) => x.entryId === 'a0000014')?.action).toBe('cleared');
    } finally {
      await engine.dispose();
    }
    expect(snapshotTree(sessionsDir)).toEqual(before);
  });
});
