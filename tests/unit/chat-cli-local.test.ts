/**
 * `cairn chat` as a real child process with the real local chat model (SmolLM2-135M-Instruct
 * through node-llama-cpp, from tests/helpers/test-models.ts): stdin is scripted, the reply
 * streams to stdout in pieces, and the session's transcript gets the user message and the
 * assistant's reply. Asserts the protocol, never the model's wording.
 *
 * maxOutputTokens is small on purpose: it keeps the run short, and it is the setting under
 * which a tool call the budget cut off used to leave an empty reply (llama-grammar.ts now
 * answers in text instead). Threads are the product's default (every core but one): with
 * every core, a loaded 2-core CI box took minutes per generated token.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStateDir } from '../../electron/engine/config/state-dir';
import { runCairn } from '../helpers/cli';
import { testModel } from '../helpers/test-models';
import { tmpDir, writeTree } from '../helpers/tmp';

const chat = testModel('chat');

interface Line {
  type: string;
  message?: { role: string; content: unknown; provider?: string; stopReason?: string };
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as { type: string; text?: string }[]).filter((b) => b.type === 'text').map((b) => b.text ?? '').join('');
}

describe.skipIf(!chat.path)(`cairn chat with the local model${chat.skip}`, () => {
  it('streams the reply to stdout and records the turn in the session transcript', async () => {
    // Created by Cairn (so writable), then configured with the local model.
    const dir = path.join(tmpDir(), 'state');
    openStateDir(dir);
    writeTree(dir, {
      'cairn.json': JSON.stringify({ cairn: { llm: { provider: 'llama', modelPath: chat.path, contextWindow: 8192, maxOutputTokens: 24 } } }),
      'workspace/MEMORY.md': '# Memory\n- The staging server listens on port 8443\n',
    });
    let chunks = 0;
    const r = await runCairn(['chat', '--state-dir', dir], { input: 'Say hello to me.\n', timeoutMs: 1_700_000, onStdout: () => chunks++ });
    expect(r.stderr).toMatch(/^cairn chat — llama SmolLM2-135M-Instruct\.Q4_1/m);
    expect(r.stderr).not.toMatch(/error:/);
    expect(r.code).toBe(0);
    const id = /\[session ([\w-]+)\]/.exec(r.stderr)?.[1];
    expect(id).toBeDefined();

    const file = path.join(dir, 'agents', 'main', 'sessions', `${id}.jsonl`);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Line);
    const messages = lines.filter((l) => l.type === 'message').map((l) => l.message!);
    expect(messages[0]).toMatchObject({ role: 'user' });
    expect(textOf(messages[0]!.content)).toBe('Say hello to me.');
    // The turn ends on an assistant reply with text (after a tool round, if the model made one).
    const last = messages[messages.length - 1]!;
    expect(last).toMatchObject({ role: 'assistant', provider: 'llama' });
    expect(['stop', 'length']).toContain(last.stopReason);
    expect(textOf(last.content).trim()).not.toBe('');
    // stdout is exactly the streamed text deltas: together they are the replies the transcript
    // recorded, and they arrived in more than one piece (streamed, not printed at the end).
    const replies = messages.filter((m) => m.role === 'assistant').map((m) => textOf(m.content)).filter(Boolean);
    expect(r.stdout.replace(/\n/g, '')).toBe(replies.join('').replace(/\n/g, ''));
    expect(chunks).toBeGreaterThan(1);
  }, 1_800_000);
});
