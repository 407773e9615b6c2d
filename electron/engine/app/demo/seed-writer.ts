/**
 * A small writer of OpenClaw/pi-format transcripts (SPEC §1.1, session format v3) for seed
 * data: a header line, then entries with 8-hex ids chained by parentId, ISO timestamps, and
 * messages shaped exactly as OpenClaw writes them (assistant usage/cost/stopReason, tool
 * results with details, `openclaw.cache-ttl` custom entries, compaction entries).
 *
 * It writes the lines itself (not through the engine) so the files are what OpenClaw
 * produces, and it is deterministic: ids come from a seeded PRNG, times from a moving clock.
 */
import fs from 'node:fs';
import path from 'node:path';

/** mulberry32: a tiny deterministic PRNG (same seed, same transcript). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Block = Record<string, unknown>;

export interface AssistantOpts {
  stopReason?: 'stop' | 'toolUse' | 'length' | 'error';
  output?: number;
}

const MODEL = { api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5' };

function blockChars(b: Block): number {
  if (b.type === 'text') return String(b.text).length;
  if (b.type === 'thinking') return String(b.thinking).length;
  if (b.type === 'toolCall') return String(b.name).length + JSON.stringify(b.arguments ?? {}).length;
  if (b.type === 'image') return 4800;
  return 0;
}

/** Builds one transcript in memory; `write()` puts it on disk. */
export class TranscriptBuilder {
  readonly lines: string[] = [];
  private readonly ids = new Set<string>();
  private parent: string | null = null;
  private t: number;
  private readonly rand: () => number;
  /** Chars of each message entry in order, to estimate usage.input like a real provider. */
  private readonly ctx: { id: string; chars: number }[] = [];
  private summaryChars = 0;
  private toolSeq = 0;
  entryCount = 0;

  constructor(
    readonly sessionId: string,
    startMs: number,
    seed: number,
    cwd = '/home/ana/.openclaw/workspace',
  ) {
    this.t = startMs;
    this.rand = rng(seed);
    this.lines.push(JSON.stringify({ type: 'session', version: 3, id: sessionId, timestamp: new Date(startMs).toISOString(), cwd }));
  }

  /** The clock of the next entry (epoch ms). */
  get now(): number {
    return this.t;
  }

  /** Move the clock forward. */
  wait(ms: number): this {
    this.t += Math.round(ms);
    return this;
  }

  private newId(): string {
    for (;;) {
      const id = Math.floor(this.rand() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
      if (!this.ids.has(id)) {
        this.ids.add(id);
        return id;
      }
    }
  }

  /** Append any entry; returns its id. */
  entry(type: string, fields: Record<string, unknown>, advanceMs = 400): string {
    this.t += advanceMs;
    const id = this.newId();
    this.lines.push(JSON.stringify({ type, id, parentId: this.parent, timestamp: new Date(this.t).toISOString(), ...fields }));
    this.parent = id;
    this.entryCount++;
    return id;
  }

  private message(message: Record<string, unknown>, chars: number, advanceMs: number): string {
    const id = this.entry('message', { message: { ...message, timestamp: this.t + advanceMs } }, advanceMs);
    this.ctx.push({ id, chars });
    return id;
  }

  /** Estimated tokens of the context the next model call would see. */
  contextTokens(): number {
    return Math.ceil((this.summaryChars + this.ctx.reduce((n, e) => n + e.chars, 0)) / 4);
  }

  modelChange(advanceMs = 10): string {
    return this.entry('model_change', { provider: MODEL.provider, modelId: MODEL.model }, advanceMs);
  }

  thinkingLevel(level = 'low', advanceMs = 10): string {
    return this.entry('thinking_level_change', { thinkingLevel: level }, advanceMs);
  }

  user(content: string | Block[], advanceMs = 60_000): string {
    const chars = typeof content === 'string' ? content.length : content.reduce((n, b) => n + blockChars(b), 0);
    return this.message({ role: 'user', content }, chars, advanceMs);
  }

  /** An assistant message; usage.input is the running context estimate (as a provider reports). */
  assistant(content: Block[], opts: AssistantOpts = {}, advanceMs = 4_000): string {
    const chars = content.reduce((n, b) => n + blockChars(b), 0);
    const input = this.contextTokens() + 2_400; // + system prompt and tools
    const output = opts.output ?? Math.max(12, Math.ceil(chars / 4));
    const cacheRead = Math.floor(input * 0.9);
    const cacheWrite = input - cacheRead;
    const stopReason = opts.stopReason ?? (content.some((b) => b.type === 'toolCall') ? 'toolUse' : 'stop');
    const cost = {
      input: +(input * 3e-6).toFixed(6),
      output: +(output * 15e-6).toFixed(6),
      cacheRead: +(cacheRead * 0.3e-6).toFixed(6),
      cacheWrite: +(cacheWrite * 3.75e-6).toFixed(6),
      total: 0,
    };
    cost.total = +(cost.input + cost.output + cost.cacheRead + cost.cacheWrite).toFixed(6);
    return this.message(
      { role: 'assistant', content, ...MODEL, usage: { input, output, cacheRead, cacheWrite, totalTokens: input + output, cost }, stopReason },
      chars,
      advanceMs,
    );
  }

  /** A fresh tool-call id in Anthropic's style. */
  toolCallId(): string {
    this.toolSeq++;
    const tail = Math.floor(this.rand() * 0xffffffff)
      .toString(36)
      .padStart(7, '0');
    return `toolu_${String(this.toolSeq).padStart(2, '0')}${tail}`;
  }

  /** An assistant turn that calls one tool, then its result. Returns [assistantId, resultId]. */
  toolTurn(
    name: string,
    args: Record<string, unknown>,
    result: string | Block[],
    opts: { text?: string; thinking?: string; details?: unknown; isError?: boolean; runMs?: number } = {},
  ): [string, string] {
    const callId = this.toolCallId();
    const blocks: Block[] = [];
    if (opts.thinking) blocks.push({ type: 'thinking', thinking: opts.thinking, thinkingSignature: Buffer.from(`sig-${callId}`).toString('base64') });
    if (opts.text) blocks.push({ type: 'text', text: opts.text });
    blocks.push({ type: 'toolCall', id: callId, name, arguments: args });
    const a = this.assistant(blocks, { stopReason: 'toolUse' });
    const r = this.toolResult(callId, name, result, opts.details, opts.isError ?? false, opts.runMs ?? 700);
    return [a, r];
  }

  toolResult(toolCallId: string, toolName: string, result: string | Block[], details?: unknown, isError = false, advanceMs = 700): string {
    const content = typeof result === 'string' ? [{ type: 'text', text: result }] : result;
    const chars = content.reduce((n, b) => n + blockChars(b), 0);
    return this.message(
      { role: 'toolResult', toolCallId, toolName, content, ...(details === undefined ? {} : { details }), isError },
      chars,
      advanceMs,
    );
  }

  /** OpenClaw's marker of a successful model call (the pruning TTL gate reads it). */
  cacheTtl(advanceMs = 100): string {
    return this.entry('custom', { customType: 'openclaw.cache-ttl', data: { timestamp: this.t + advanceMs, provider: MODEL.provider, modelId: MODEL.model } }, advanceMs);
  }

  /**
   * A compaction entry keeping the messages from `firstKeptEntryId` on. `tokensBefore` is the
   * context estimate at this point unless given.
   */
  compaction(summary: string, firstKeptEntryId: string, details?: Record<string, unknown>, advanceMs = 2_000): string {
    const tokensBefore = this.contextTokens();
    const keepFrom = this.ctx.findIndex((e) => e.id === firstKeptEntryId);
    if (keepFrom < 0) throw new Error(`seed: firstKeptEntryId ${firstKeptEntryId} is not a message of this transcript`);
    const id = this.entry('compaction', { summary, firstKeptEntryId, tokensBefore, ...(details ? { details } : {}) }, advanceMs);
    this.ctx.splice(0, keepFrom);
    this.summaryChars = summary.length + 110;
    return id;
  }

  custom(customType: string, data: unknown, advanceMs = 50): string {
    return this.entry('custom', { customType, data }, advanceMs);
  }

  /** Write the transcript to `<dir>/<sessionId>.jsonl`; returns the path. */
  write(dir: string): string {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${this.sessionId}.jsonl`);
    fs.writeFileSync(file, `${this.lines.join('\n')}\n`);
    return file;
  }
}

/** A deterministic UUID-looking session id (OpenClaw names transcripts by a v4 UUID). */
export function seedUuid(seed: number): string {
  const r = rng(seed);
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(r() * 16).toString(16)).join('');
  return `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(r() * 4)]}${hex(3)}-${hex(12)}`;
}
