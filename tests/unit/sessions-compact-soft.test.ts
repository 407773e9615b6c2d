/**
 * `compact.plan`, `tokens.exact` and `compact.run` on a big transcript (≥ 8 MB) read it the
 * way the session pages do (sessions/load-soft.ts): the engine answers other calls while the
 * file is read and parsed, the caller can cancel, and every result is what the old
 * synchronous read gave. And compaction never plans on bytes the file no longer holds.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compact } from '../../electron/engine/compaction/compact';
import { planCompaction } from '../../electron/engine/compaction/plan';
import { compactionRegion } from '../../electron/engine/compaction/region';
import { CompactionSchema, defaultConfig } from '../../electron/engine/config/schema';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { createDirectClient } from '../../electron/engine/rpc/direct';
import { countMessages } from '../../electron/engine/sessions/exact-tokens';
import { storeCaches } from '../../electron/engine/sessions/store/cache';
import { readTranscript } from '../../electron/engine/transcript/read';
import { parsedFingerprint, prefixFingerprint } from '../../electron/engine/transcript/prefix';
import { parseTranscript } from '../../electron/engine/transcript/parse';
import { CairnError, type CairnApi } from '../../shared/client';
import { writeBigSession, type BigSession } from '../../testkit/big-inputs';
import { makeSession } from '../helpers/sessions';
import { tmpDir } from '../helpers/tmp';

/** One turn of the event loop (not a timer): a synchronous handler has finished by then. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A fresh engine on a state dir holding an ~11 MB session (1,200 entries, every third tool result 120 KB). */
function bigEngine(): { engine: Engine; api: CairnApi; big: BigSession } {
  const stateDir = tmpDir();
  const big = writeBigSession(stateDir, 1_200, 120_000);
  expect(big.bytes).toBeGreaterThan(8 * 1024 * 1024);
  const engine = createEngine({ stateDir });
  return { engine, api: createDirectClient(engine), big };
}

/**
 * Start `call`, then ask for Status one turn later; the order they were answered in. With a
 * synchronous read `call` is answered within the first turn, before Status is even asked.
 */
async function answeredFirst<T>(api: CairnApi, call: () => Promise<T>): Promise<{ order: string[]; value: T }> {
  const order: string[] = [];
  const pending = call().then((v) => (order.push('call'), v));
  await nextTurn();
  const status = api['app.status']({ checks: false }).then(() => order.push('status'));
  const [value] = await Promise.all([pending, status]);
  return { order, value };
}

const compactionDefaults = () => defaultConfig().agents.defaults.compaction;

describe('compact.plan and tokens.exact on a big transcript', () => {
  it('compact.plan: Status is answered while the file is read, and the plan is the synchronous read\'s', async () => {
    const { engine, api, big } = bigEngine();
    try {
      const { order, value: p } = await answeredFirst(api, () => api['compact.plan']({ sessionId: big.sessionId }));
      expect(order).toEqual(['status', 'call']);
      // The old path: the whole file read and parsed at once, then planned.
      const want = planCompaction(readTranscript(big.file), { settings: compactionDefaults(), contextWindowTokens: p.contextWindow });
      expect(p.possible).toBe(true);
      expect({ cut: p.cutEntryId, first: p.firstKeptEntryId, before: p.tokensBefore, kept: p.keptTokens, summarized: p.summarizedTokens, mode: p.mode, stages: p.stages }).toEqual({
        cut: want.cutEntryId, first: want.firstKeptEntryId, before: want.tokensBefore, kept: want.keptTokens, summarized: want.summarizedTokens, mode: want.mode, stages: want.stages,
      });
      expect(p.summarizeEntryIds).toEqual(want.toSummarize.map((i) => i.entry.id));
      expect(p.keptEntryIds).toEqual(want.kept.map((i) => i.entry.id));
      expect(p.prompt).toEqual(want.prompt);
    } finally {
      await engine.dispose();
    }
  });

  it('tokens.exact: Status is answered while the file is read, and the counts are the synchronous read\'s', async () => {
    const { engine, api, big } = bigEngine();
    try {
      const { order, value: x } = await answeredFirst(api, () => api['tokens.exact']({ sessionId: big.sessionId }));
      expect(order).toEqual(['status', 'call']);
      const t = readTranscript(big.file);
      const plan = planCompaction(t, { settings: compactionDefaults(), contextWindowTokens: defaultConfig().agents.defaults.contextTokens });
      expect(x.tokenizer).toBeNull();
      expect(x.context).toEqual(await countMessages(compactionRegion(t).context.messages, undefined));
      expect(x.summarized).toEqual(await countMessages(plan.toSummarize.map((i) => i.message), undefined));
      expect(x.kept).toEqual(await countMessages(plan.kept.map((i) => i.message), undefined));
      expect(x.context.estimate).toBeGreaterThan(1_000_000);
    } finally {
      await engine.dispose();
    }
  });

  it('cancelling compact.plan answers at once and stops the read; a caller sharing the read still gets its plan', async () => {
    const { engine, api, big } = bigEngine();
    try {
      const stamp = () => {
        const st = fs.statSync(big.file);
        return `${st.size}:${st.mtimeMs}`;
      };
      // Alone: cancelled before the parse could end — nothing was parsed into the cache.
      const ac = new AbortController();
      const alone = api['compact.plan']({ sessionId: big.sessionId }, { signal: ac.signal });
      await nextTurn();
      ac.abort();
      await expect(alone).rejects.toSatisfy((e: unknown) => e instanceof CairnError && e.code === 'cancelled');
      expect(storeCaches(engine.ctx).transcript(big.file, stamp())).toBeUndefined();

      // Two callers share one parse: the one who cancels does not fail the other.
      const ac2 = new AbortController();
      const cancelled = api['compact.plan']({ sessionId: big.sessionId }, { signal: ac2.signal });
      const kept = api['compact.plan']({ sessionId: big.sessionId });
      await nextTurn();
      ac2.abort();
      await expect(cancelled).rejects.toSatisfy((e: unknown) => e instanceof CairnError && e.code === 'cancelled');
      const p = await kept;
      expect(p.possible).toBe(true);
      expect(p.tokensBefore).toBe(planCompaction(readTranscript(big.file), { settings: compactionDefaults(), contextWindowTokens: p.contextWindow }).tokensBefore);
      // That parse went on to the end and is cached for the next call.
      expect(storeCaches(engine.ctx).transcript(big.file, stamp())?.entries).toHaveLength(1_200);
    } finally {
      await engine.dispose();
    }
  });
});

describe('compact.run on a big transcript', () => {
  it('Status is answered while the file is read, and the entry written is the one the synchronous read writes', async () => {
    const { engine, api, big } = bigEngine();
    const copy = `${tmpDir()}/${big.sessionId}.jsonl`;
    fs.copyFileSync(big.file, copy);
    const before = fs.readFileSync(big.file);
    try {
      const { order, value: r } = await answeredFirst(api, () => api['compact.run']({ sessionId: big.sessionId }));
      expect(order).toEqual(['status', 'call']);
      expect(r.compacted).toBe(true);
      // Every old byte kept, one line appended: the compaction entry.
      const after = fs.readFileSync(big.file);
      expect(after.subarray(0, before.length).equals(before)).toBe(true);
      const written = readTranscript(big.file).entries.at(-1);
      // The old path on the copy: compact() reading the file itself, synchronously.
      const ref = await compact({ file: copy, settings: compactionDefaults(), contextWindowTokens: defaultConfig().agents.defaults.contextTokens, trigger: 'manual', checkpoint: false });
      if (!ref.compacted) throw new Error(ref.reason);
      expect(written).toEqual({ ...ref.entry, id: r.entryId, timestamp: written?.timestamp });
      expect(r.summary).toBe(ref.summary);
      expect([r.tokensBefore, r.tokensAfter]).toEqual([ref.tokensBefore, ref.tokensAfter]);
    } finally {
      await engine.dispose();
    }
  });
});

describe('compact() with a transcript parsed earlier', () => {
  it('reads the file again when it was rewritten to the same size since: the entry names entries the file holds', async () => {
    const { file } = makeSession(12, { resultChars: 600 });
    const stale = readTranscript(file);
    // Another writer rewrites the file, same size, other entry ids (every hex digit shifted).
    const text = fs.readFileSync(file, 'utf8').replace(/"(id|parentId)":"([0-9a-f]{8})"/g, (_m, k: string, id: string) => `"${k}":"${[...id].map((c) => ((parseInt(c, 16) + 1) % 16).toString(16)).join('')}"`);
    fs.writeFileSync(file, text);
    expect(fs.statSync(file).size).toBe(stale.bytes);
    const r = await compact({ file, transcript: stale, settings: CompactionSchema.parse({ keepRecentTokens: 600 }), contextWindowTokens: 100_000, checkpoint: false });
    expect(r.compacted).toBe(true);
    if (!r.compacted) return;
    const now = readTranscript(file);
    const ids = new Set(now.entries.map((e) => e.id));
    expect(ids.has(r.entry.firstKeptEntryId)).toBe(true);
    expect(ids.has(r.entry.parentId ?? '')).toBe(true);
    expect(stale.byId.has(r.entry.firstKeptEntryId)).toBe(false);
  });

  it('parsedFingerprint is the file\'s own fingerprint (multi-byte text, no final newline, blank lines)', () => {
    const dir = tmpDir();
    const cases = ['', '{"type":"session"}\n', `${'{"a":"é✓😀"}\n'.repeat(400)}\n\n`, `${'{"b":1}\n'.repeat(900)}{"type":"mess`];
    cases.forEach((text, i) => {
      const file = `${dir}/f${i}.jsonl`;
      fs.writeFileSync(file, text);
      const t = parseTranscript(file, text, Buffer.byteLength(text));
      expect(parsedFingerprint(t)).toEqual(prefixFingerprint(file));
    });
  });
});
