/** Text output of `tokens.exact` for the CLI: exact counts beside the estimates (SPEC §2). */
import type { ExactTokensResult, TokenCount } from '../../../shared/contract/tokens';

const n = (x: number) => x.toLocaleString('en-US');
const pair = (c: TokenCount) => (c.exact === null ? `~${n(c.estimate)}` : `${n(c.exact)} exact / ~${n(c.estimate)} estimated`);

/** One line ending in a newline: the counts with the tokenizer's name, or why only estimates. */
export function formatExactTokens(r: ExactTokensResult): string {
  const counts = `context ${pair(r.context)}; to summarise ${pair(r.summarized)}; kept ${pair(r.kept)}`;
  return r.tokenizer ? `tokens (${r.tokenizer.model} tokenizer): ${counts}\n` : `tokens (estimates only: ${r.reason ?? 'no tokenizer'}): ${counts}\n`;
}
