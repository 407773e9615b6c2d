/**
 * What the model reads (issue 37): the lines that answer, on every surface — the recall
 * section OpenClaw prepends (recallForPrompt), memory_search's text over MCP, and `cairn
 * search` — through a real engine on a temp state dir (real SQLite, a deterministic embedder).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../electron/engine/engine';
import { recallForPrompt, type RecallRequest } from '../../electron/engine/openclaw/recall';
import { openclawTokens } from '../../electron/engine/openclaw/token-estimate';
import { formatSearchText } from '../../electron/cli/mcp/tools';
import { runCli } from '../../electron/cli/main';
import { createRuntime } from '../../electron/cli/runtime';
import { FakeEmbedder } from '../../testkit/fake-embedder';
import { tmpDir, writeTree } from '../helpers/tmp';

const engines: Engine[] = [];
afterEach(async () => {
  while (engines.length) await engines.pop()!.dispose();
});

function start(files: Record<string, string>): { engine: Engine; stateDir: string } {
  const stateDir = writeTree(tmpDir('cairn-lines-'), { 'cairn.json': '{}', ...files });
  const engine = createEngine({ stateDir, deps: { createEmbedder: async () => new FakeEmbedder() } });
  engines.push(engine);
  return { engine, stateDir };
}

/** The plugin's defaults (openclaw-plugin/index.js): 600 tokens, score floor 0.1, 6 hits. */
function ask(engine: Engine, message: string, over: Partial<RecallRequest> = {}) {
  return recallForPrompt(engine.ctx, { agentId: 'main', sessionId: 's-1', message, budgetMs: 60_000, maxTokens: 600, minScore: 0.1, maxHits: 6, ...over });
}

async function cli(args: string[]) {
  let stdout = '';
  const rt = createRuntime({ stdout: (s) => (stdout += s), stderr: () => {}, isTTY: false, deps: { createEmbedder: async () => new FakeEmbedder() } });
  const code = await runCli(args, rt);
  return { code, stdout };
}

const CHAT = [
  'Morning! Did you sleep well after the concert last night?',
  'Barely, the band played an encore that went on for ages and the tram home was packed.',
  'That hidden gem of a cafe near the station opened again, we should try their pastries.',
  'Sure, but I have to finish the quarterly slides first, my manager moved the deadline.',
  'Ugh, deadlines. Mine moved too, the whole team is scrambling to get the demo ready.',
  'Are you still going climbing on Saturday with the group from the gym?',
  'Yes, we are driving up to the quarry early, weather looks dry for once.',
  'Bring sunscreen, last time you came back looking like a tomato.',
  'Ha, fair. Did your sister ever find a flat in the city centre?',
  'She signed a lease on Monday, a small place with a balcony over the canal.',
  'Nice. By the way, where did you leave the spare key for the cottage?',
  'The spare key for the cottage is under the blue flowerpot beside the shed door.',
  'Perfect, I will pick it up on Friday before the long weekend starts.',
  'Remember to water the tomatoes while you are there, they dry out fast.',
  'Will do, and I will feed the neighbour’s cat too if she asks again.',
];

/** A note of fifteen turns between Ann and Ben, the twelfth of which answers; line 5 is the first turn. */
const fifteenTurns = `# 2024-03-02\n\n## Session 1\n\n${CHAT.map((t, i) => `**${i % 2 ? 'Ben' : 'Ann'}:** ${t}`).join('\n')}\n`;
const ANSWER = '**Ben:** The spare key for the cottage is under the blue flowerpot beside the shed door.';
const QUESTION = 'Where is the spare key for the cottage hidden?';

describe('the lines that answer', () => {
  it('a chunk of fifteen turns whose twelfth answers: that line, cited exactly, in the section, the MCP text and the CLI', async () => {
    const { engine, stateDir } = start({ 'workspace/memory/2024-03-02.md': fifteenTurns });
    const { context } = await ask(engine, QUESTION);
    expect(context).toContain(ANSWER);
    expect(context).toContain('[memory/2024-03-02.md#L15-L16]'); // the question it answers, then the answer
    // The first query word's window is not what is read: turns that share no word with the question stay out.
    expect(context).not.toContain('climbing');
    expect(context).not.toContain('tomato');
    expect(openclawTokens(context)).toBeLessThanOrEqual(600);

    const res = await engine.ctx.searchBackend().search('main', { query: QUESTION });
    expect(res.results[0]!.lines?.find((l) => l.line === 16)).toMatchObject({ text: ANSWER, role: 'match' });
    const mcp = formatSearchText(res);
    expect(mcp).toContain(`L16: ${ANSWER}`);
    expect(mcp).not.toContain('hidden gem');

    const out = await cli(['search', QUESTION, '--state-dir', stateDir]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`   L16: ${ANSWER}`);
    expect(out.stdout).not.toContain('hidden gem');
  });

  it('a question with two answers in two notes gets both inside 600 tokens', async () => {
    const filler = (topic: string) => Array.from({ length: 24 }, (_, i) => `- ${topic} note ${i + 1}: nothing new about the weekly chores, the garden or the car today.`).join('\n');
    const { engine } = start({
      'workspace/memory/home-network.md': `# Home network\n\nThe wifi router was replaced in May.\n${filler('network')}\n- The wifi password is otter-sunrise-42.\n`,
      'workspace/memory/house-alarm.md': `# House alarm\n\nThe alarm panel beeps when the battery is low.\n${filler('alarm')}\n- The alarm code is 7731, set by the installer.\n`,
    });
    const { context } = await ask(engine, 'What are the wifi password and the alarm code?');
    expect(context).toContain('The wifi password is otter-sunrise-42.');
    expect(context).toContain('The alarm code is 7731, set by the installer.');
    expect(context).toMatch(/\[memory\/home-network\.md#L\d+\]/);
    expect(openclawTokens(context)).toBeLessThanOrEqual(600);
  });

  it('a line longer than the budget is cut around its match', async () => {
    const words = (n: number, w: string) => Array.from({ length: n }, (_, i) => `${w}${i % 10}`).join(' ');
    const long = `${words(110, 'lorem')} the zephyr cutoff valve sits behind panel nine ${words(110, 'ipsum')}`;
    const { engine } = start({ 'workspace/memory/plant.md': `# Plant\n\n${long}\n` });
    const { context } = await ask(engine, 'Where is the zephyr cutoff valve?', { maxTokens: 150 });
    expect(context).toContain('the zephyr cutoff valve sits behind panel nine');
    expect(context).toMatch(/\n…\S* lorem\d .*panel nine ipsum.*…\n/);
    expect(openclawTokens(context)).toBeLessThanOrEqual(150);
  });

  it('CJK text picks lines as well as English', async () => {
    const { engine } = start({
      'workspace/memory/2024-05-09.md': '# 会議\n\n今日は朝から雨が降っていました。\n駅前のカフェで友達と昼ご飯を食べました。\n東京で予算の会議があり、来年度の予算は三千万円に決まりました。\n夜は家で映画を見てゆっくり過ごしました。\n',
    });
    const res = await engine.ctx.searchBackend().search('main', { query: '予算の会議' });
    expect(res.results[0]!.lines?.filter((l) => l.role === 'match').map((l) => l.line)).toEqual([5]);
    const { context } = await ask(engine, '来年度の予算の会議はどうなった？');
    expect(context).toContain('東京で予算の会議があり、来年度の予算は三千万円に決まりました。');
    expect(context).not.toContain('映画');
  });

  it("a past session's line is cited by its own JSONL line, tool calls and results between the turns", async () => {
    const ts = '2026-11-30T10:00:00.000Z';
    const entry = (id: string, parentId: string | null, message: object) => JSON.stringify({ type: 'message', id, parentId, timestamp: ts, message: { timestamp: 0, ...message } });
    const jsonl = [
      JSON.stringify({ type: 'session', version: 3, id: 'sess-1', timestamp: ts, cwd: '/tmp' }),
      entry('a0000001', null, { role: 'user', content: 'Can you check which port the staging proxy uses?' }),
      entry('a0000002', 'a0000001', { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'proxy.conf' } }], provider: 'x', model: 'y', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: 'toolUse' }),
      entry('a0000003', 'a0000002', { role: 'toolResult', toolCallId: 'c1', toolName: 'read', content: [{ type: 'text', text: 'listen 8443;' }], isError: false }),
      entry('a0000004', 'a0000003', { role: 'assistant', content: [{ type: 'text', text: 'The staging proxy listens on port 8443, set in proxy.conf.' }], provider: 'x', model: 'y', usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: 'stop' }),
      entry('a0000005', 'a0000004', { role: 'user', content: 'Thanks, and remind me to renew the certificate next week.' }),
    ].join('\n');
    const { engine } = start({ 'cairn.json': JSON.stringify({ memory: { search: { sources: ['memory', 'sessions'] } } }), 'agents/main/sessions/sess-1.jsonl': `${jsonl}\n` });
    const res = await engine.ctx.searchBackend().search('main', { query: 'staging proxy port', source: 'sessions' });
    expect(res.results[0]!.path).toBe('sessions/sess-1.jsonl');
    expect(res.results[0]!.lines?.find((l) => l.role === 'match' && l.text.includes('8443'))).toMatchObject({ line: 5, text: 'Assistant: The staging proxy listens on port 8443, set in proxy.conf.' });
    const { context } = await ask(engine, 'Which port does the staging proxy listen on?');
    expect(context).toMatch(/\[sessions\/sess-1\.jsonl#L5\]\nAssistant: The staging proxy listens on port 8443/);
    expect(context).toContain('[sessions/sess-1.jsonl#L2] (2026-11-30)\nUser: Can you check which port the staging proxy uses?'); // the session's date, once
  });

  it('markup that is not content never takes room; a question memory cannot answer injects nothing', async () => {
    const { engine } = start({
      'workspace/MEMORY.md': '# Preferences\n\n<!-- openclaw-memory-promotion:abc123 score=0.9 -->\n- Prefers oat milk in coffee. <!-- importance: 8 -->\n- Runs on Tuesdays.\n',
    });
    const res = await engine.ctx.searchBackend().search('main', { query: 'oat milk coffee' });
    expect(res.results[0]!.excerpt).toBe('- Prefers oat milk in coffee.');
    expect(res.results[0]!.annotations?.importance).toBe(8);
    const { context } = await ask(engine, 'oat milk in coffee?');
    expect(context).toContain('- Prefers oat milk in coffee.');
    expect(context).not.toContain('<!--');
    expect(context).not.toContain('&lt;!--');
    const none = await ask(engine, 'Which kernel version broke the graphics driver?');
    expect(none.context).toBe('');
  });

  it("the other speaker's reply to a turn worded like the question is read, though it shares no word with it", async () => {
    const turns = [
      '**Ann:** The printer jammed again this morning, I lost half an hour on it.',
      '**Ben:** Kick it, that is what everyone in accounts does.',
      '**Ann:** Where did you go on holiday in August?',
      '**Ben:** We rented a wooden cabin by Lake Tahoe with my cousins.',
      '**Ann:** Sounds lovely. I still have to book anything for the winter.',
    ];
    const { engine } = start({ 'workspace/memory/2024-09-10.md': `# 2024-09-10\n\n${turns.join('\n')}\n` });
    const question = 'Where was the holiday in August?';
    const { context } = await ask(engine, question);
    expect(context).toMatch(/\[memory\/2024-09-10\.md#L\d-L6\]\n/); // the reply is cited
    expect(context).toContain(`${turns[2]}\n${turns[3]}`); // the question, then the reply
    expect(context).not.toContain(turns[4]!);
    const res = await engine.ctx.searchBackend().search('main', { query: question });
    expect(res.results[0]!.lines?.find((l) => l.line === 6)).toMatchObject({ text: turns[3], role: 'match' });
  });

  it('the turn a reaction worded like the question reacts to is read: it is what was said', async () => {
    const turns = [
      '**Ann:** How was your week, anything new at the depot?',
      '**Ben:** They made me head of logistics on Monday, with a team of nine.',
      '**Ann:** Congratulations on the promotion, you earned it after all those long night shifts!',
      '**Ben:** Thanks! Dinner is on me this Friday.',
    ];
    const { engine } = start({ 'workspace/memory/2024-10-02.md': `# 2024-10-02\n\n${turns.join('\n')}\n` });
    const { context } = await ask(engine, 'What was the promotion?');
    expect(context).toContain(`${turns[1]}\n${turns[2]}`);
    expect(context).not.toContain('Dinner');
  });
});
