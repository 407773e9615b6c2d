/**
 * The two-step JSON-grammar tool calling of local models without function calling
 * (llm/llama-grammar.ts), with a scripted generation step passed in through grammarTurn's
 * `step` parameter (what the model "writes" per step). The real-model side of it runs in
 * tests/unit/llm-llama-glue.test.ts; this holds the turn's own logic: a call or a choice
 * that the output budget cuts off must still give the user an answer.
 */
import type { LlamaGrammar } from 'node-llama-cpp';
import { describe, expect, it } from 'vitest';
import { grammarTurn, type GrammarStep } from '../../electron/engine/llm/llama-grammar';
import type { ToolSpec } from '../../electron/engine/llm/types';

const TOOLS: ToolSpec[] = [{ name: 'read', description: 'Read a file in the workspace.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];

/** A step that answers each call with the next scripted output and records what it was asked. */
function scripted(outputs: { response: string; stopReason: string }[]) {
  const asked: { prefix: string; grammar: boolean; maxTokens: number | undefined }[] = [];
  const step: GrammarStep = async (history, o) => {
    const open = history[history.length - 1] as { response: string[] };
    asked.push({ prefix: open.response.join(''), grammar: Boolean(o.grammar), maxTokens: o.maxTokens });
    const out = outputs.shift();
    if (!out) throw new Error('the model was asked more often than scripted');
    if (o.onText) for (const piece of out.response.match(/.{1,3}/gs) ?? []) o.onText(piece);
    return out;
  };
  return { step, asked };
}

const grammar = async () => ({}) as LlamaGrammar;
const req = (onText: (t: string) => void) => ({ system: 'You are helpful.', messages: [{ role: 'user' as const, content: 'What is in notes.md?' }], tools: TOOLS, maxTokens: 16, onText });

describe('grammar tool calls of a local model', () => {
  it('makes the call when its arguments fit the budget', async () => {
    const { step, asked } = scripted([
      { response: '{"action": "read"}', stopReason: 'eogToken' },
      { response: '{"path": "notes.md"}', stopReason: 'eogToken' },
    ]);
    const out = await grammarTurn(req(() => {}), step, grammar);
    expect(out.call).toEqual({ name: 'read', arguments: { path: 'notes.md' } });
    expect(out.text).toBe('');
    expect(asked.map((a) => a.grammar)).toEqual([true, true]);
  });

  it('answers in streamed text when the budget cuts the call\'s arguments off, instead of an empty reply', async () => {
    const { step, asked } = scripted([
      { response: '{"action": "read"}', stopReason: 'eogToken' },
      { response: '{"path": "a/very/long/path/that/did/not', stopReason: 'maxTokens' },
      { response: 'Hello! I can look at notes.md for you.', stopReason: 'eogToken' },
    ]);
    const streamed: string[] = [];
    const out = await grammarTurn(req((t) => streamed.push(t)), step, grammar);
    expect(out.call).toBeUndefined();
    expect(out.text).toBe('Hello! I can look at notes.md for you.');
    expect(streamed.join('')).toBe(out.text);
    // The third step is a free-text reply (no grammar) under the same budget.
    expect(asked[2]).toEqual({ prefix: '{"action": "reply"}\n', grammar: false, maxTokens: 16 });
  });

  it('answers in text when the choice itself was cut off', async () => {
    const { step } = scripted([
      { response: '{"action": ', stopReason: 'maxTokens' },
      { response: 'Hi there.', stopReason: 'eogToken' },
    ]);
    const out = await grammarTurn(req(() => {}), step, grammar);
    expect(out).toEqual({ text: 'Hi there.', stopReason: 'eogToken' });
  });
});
