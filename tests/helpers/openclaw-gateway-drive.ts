/**
 * A long-lived OpenClaw gateway, as far as Cairn's plugin sees it: one plugin process under
 * OpenClaw's Node 24 (openclaw-plugin-host.ts) sending `prompts` prompts and `searches` corpus
 * searches to ONE real `cairn openclaw-bridge`, with a new memory note written before every
 * `noteEvery`-th prompt — and that prompt asking for the note's codeword, so each answer is
 * checked against what changed; every other search finds the note with U+2028/U+2029 (the dir
 * must hold openclaw-plugin-host.ts's hostileNote). Samples both processes' RSS and open file descriptors, and
 * times each call (for the benchmark; the test asserts none of the times). Used by
 * tests/unit/openclaw-plugin-gateway.test.ts (few iterations) and bench/openclaw-gateway.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PluginHost, Usage } from './openclaw-plugin-host';

/** One sample of both processes. */
export interface GatewaySample {
  /** Calls made so far. */
  at: number;
  client: Usage | null;
  bridge: Usage | null;
  bridgePid: number | null;
}

/** What the run saw. */
export interface GatewayRun {
  samples: GatewaySample[];
  promptMs: number[];
  searchMs: number[];
  /** Answers that missed what they should have held: `<call>: <why>`. */
  wrong: string[];
}

/** The options of one run. */
export interface GatewayOptions {
  prompts: number;
  searches: number;
  /** Write a new note before every this-many prompts (and ask for it). */
  noteEvery: number;
  /** Take a sample every this-many calls (and at the start and the end). */
  sampleEvery: number;
  /** The memory folder to write notes into. */
  memoryDir: string;
}

const codeword = (k: number): string => `GWCODE-${String(k).padStart(5, '0')}-${(k * 7919) % 10007}`;
// Each asks for what the note holds: a question memory does not answer gets no section (recall-pack.ts LINE_FLOOR).
const QUESTIONS = ['What is the Lisbon trip codeword?', 'Remind me of the codeword for the Lisbon trip', 'which codeword did we pick for Lisbon'];

/** Drive one plugin host as a gateway does for days (see the file header). */
export async function driveGateway(host: PluginHost, o: GatewayOptions): Promise<GatewayRun> {
  const run: GatewayRun = { samples: [], promptMs: [], searchMs: [], wrong: [] };
  const sample = async (at: number) => {
    const s = await host.call<{ client: Usage | null; bridge: Usage | null; bridgePid: number | null }>('stats');
    run.samples.push({ at, ...s });
  };
  const total = o.prompts + o.searches;
  // Searches spread evenly among the prompts.
  const searchEvery = o.searches > 0 ? total / o.searches : Infinity;
  let prompts = 0;
  let searches = 0;
  let notes = 0;
  await sample(0);
  for (let call = 1; call <= total; call++) {
    const isSearch = searches < o.searches && (prompts >= o.prompts || Math.floor(call / searchEvery) > searches);
    if (isSearch) {
      searches++;
      // Every other search finds the note with U+2028/U+2029 (hostileNote): its answer line must survive the wire.
      const [query, want] = searches % 2 ? ['Lisbon trip codeword saffron', 'saffron-kite'] : ['Oslo storage unit code', 'OSLO-7731\u2028on the second floor\u2029'];
      const { hits, ms } = await host.call<{ hits: { snippet: string; path: string }[]; ms: number }>('search', { query, maxResults: 6 });
      run.searchMs.push(ms);
      if (!hits.some((h) => h.snippet.includes(want))) run.wrong.push(`search ${searches}: no hit holds ${JSON.stringify(want)}`);
    } else {
      prompts++;
      let message = QUESTIONS[prompts % QUESTIONS.length] as string;
      let want = 'saffron-kite';
      if (prompts % o.noteEvery === 0) {
        notes++;
        // A new fact, then a question only it answers: the bridge must see the memory change.
        fs.writeFileSync(path.join(o.memoryDir, `gateway-${notes}.md`), `# Gateway note ${notes}\n\n- The locker for shipment ${notes} opens with ${codeword(notes)}.\n`);
        message = `Which code opens the locker for shipment ${notes}?`;
        want = codeword(notes);
      }
      const { context, ms } = await host.call<{ context: string | null; ms: number }>('prompt', { message, sessionId: `gw-${prompts % 50}` });
      run.promptMs.push(ms);
      if (!context?.includes(want)) run.wrong.push(`prompt ${prompts}: no ${want} in ${JSON.stringify(context?.slice(0, 200) ?? null)}`);
    }
    if (call % o.sampleEvery === 0) await sample(call);
  }
  if (total % o.sampleEvery !== 0) await sample(total);
  return run;
}

/** The `q`-quantile of `xs` (nearest rank). */
export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
}
