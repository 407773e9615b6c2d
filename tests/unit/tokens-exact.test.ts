/**
 * Exact token counts beside the estimates (SPEC §2) with the real local model's tokenizer
 * (SmolLM2-135M-Instruct): `cairn compact --dry-run` prints and returns them; without a
 * local model only the estimates are shown, with the reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LlamaLlm } from '../../electron/engine/llm/llama';
import { readTranscript } from '../../electron/engine/transcript/read';
import { buildContext } from '../../electron/engine/transcript/context';
import { countedText } from '../../electron/engine/sessions/exact-tokens';
import type { ExactTokensResult } from '../../shared/contract/tokens';
import { runCairn } from '../helpers/cli';
import { copyFixture, FIXTURE_SESSION_ID as SID } from '../helpers/fixtures';
import { testModel } from '../helpers/test-models';

const chat = testModel('chat');

/** The real `cairn` executable as a child process. */
const cli = (args: string[]) => runCairn(args, { timeoutMs: 240_000 });

describe('exact token counts without a local model', () => {
  it('shows the estimates only and says why', async () => {
    const { stateDir } = copyFixture();
    const r = await cli(['compact', SID, '--dry-run', '--state-dir', stateDir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^tokens \(estimates only: no chat model configured[^\n]*\): context ~[\d,]+; to summarise ~[\d,]+; kept ~[\d,]+\n/);
  }, 120_000);
});

describe.skipIf(!chat.path)(`exact token counts with SmolLM2's tokenizer${chat.skip}`, () => {
  const ref = chat.path ? new LlamaLlm({ modelPath: chat.path, contextSize: 512, threads: 1 }) : undefined;
  afterAll(async () => {
    await ref?.dispose();
  });

  it('compact --dry-run gives the tokenizer\'s counts beside the estimates, for the context and the plan\'s parts', async () => {
    const { stateDir, transcript } = copyFixture();
    fs.writeFileSync(path.join(stateDir, 'openclaw.json'), JSON.stringify({ cairn: { llm: { provider: 'llama', modelPath: chat.path, contextWindow: 8192 } } }));
    const r = await cli(['compact', SID, '--dry-run', '--json', '--state-dir', stateDir]);
    expect(r.code).toBe(0);
    const plan = JSON.parse(r.stdout) as { tokensBefore: number; keptTokens: number; summarizedTokens: number; exactTokens: ExactTokensResult };
    const x = plan.exactTokens;
    expect(x.tokenizer).toEqual({ provider: 'llama', model: 'SmolLM2-135M-Instruct.Q4_1' });
    // The estimates are the plan's own numbers.
    expect(x.context.estimate).toBe(plan.tokensBefore);
    expect(x.summarized.estimate).toBe(plan.summarizedTokens);
    expect(x.kept.estimate).toBe(plan.keptTokens);
    // The exact count is what the model's tokenizer makes of the context's messages.
    let expected = 0;
    for (const m of buildContext(readTranscript(transcript)).messages) expected += await ref!.countTokens(countedText(m));
    expect(x.context.exact).toBe(expected);
    expect(x.summarized.exact! + x.kept.exact!).toBeLessThanOrEqual(x.context.exact!);
    expect(x.kept.exact).toBeGreaterThan(0);

    const text = await cli(['compact', SID, '--dry-run', '--state-dir', stateDir]);
    expect(text.stdout.split('\n')[0]).toBe(
      `tokens (SmolLM2-135M-Instruct.Q4_1 tokenizer): context ${expected.toLocaleString('en-US')} exact / ~${plan.tokensBefore.toLocaleString('en-US')} estimated; ` +
        `to summarise ${x.summarized.exact!.toLocaleString('en-US')} exact / ~${plan.summarizedTokens.toLocaleString('en-US')} estimated; kept ${x.kept.exact!.toLocaleString('en-US')} exact / ~${plan.keptTokens.toLocaleString('en-US')} estimated`,
    );
  }, 300_000);
});
