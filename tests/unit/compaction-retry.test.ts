/**
 * The judge's second chance must be a real one: a local model decodes greedily by default, so
 * asking again the same way returns the same refused text (SmolLM2 on an 8k session looped
 * twice, identically). The retry is sampled (RETRY_TEMPERATURE); a scripted LLM that loops
 * only when decoding greedily stands in for such a model, through the LLM interface.
 */
import { describe, expect, it } from 'vitest';
import { compact, RETRY_TEMPERATURE } from '../../electron/engine/compaction/compact';
import { CompactionSchema } from '../../electron/engine/config/schema';
import { ScriptedLlm } from '../helpers/scripted-llm';
import { makeSession } from '../helpers/sessions';

const GOOD = '## Decisions\n- Keep port 3000 for module 0.\n\n## Open TODOs\n- (none)\n\n## Constraints/Rules\n- (none)\n\n## Pending user asks\n- Check the remaining modules.';
const LOOP = Array.from({ length: 12 }, () => '- Done with the modules.').join('\n');

describe('compaction retry after a refused summary', () => {
  it('samples the second summary, so a greedy model that looped once can still give a model summary', async () => {
    const { file } = makeSession(8);
    const llm = new ScriptedLlm((req) => ({ text: req.temperature ? GOOD : LOOP }));
    const r = await compact({ file, settings: CompactionSchema.parse({ keepRecentTokens: 200 }), contextWindowTokens: 100_000, llm });
    // A compaction that did not happen fails here (it used to return early and pass).
    if (!r.compacted) throw new Error(`nothing was compacted: ${r.reason}`);
    expect(r.extract).toBe(false);
    expect(r.summary.startsWith(GOOD)).toBe(true);
    expect(r.entry.details).toMatchObject({ summaryRetried: 'the summary repeats the same text in a loop' });
    // Only the retry is sampled: the first answer comes at the provider's own temperature.
    expect(llm.requests.map((q) => q.temperature)).toEqual([undefined, RETRY_TEMPERATURE]);
  });
});
