/**
 * Sentence material for the synthetic benchmark corpora (bench/corpus.ts): topics, people,
 * identifiers and sentence templates that read like an assistant's working memory, so BM25
 * and the word-vector embedder see a realistic vocabulary (varied words, repeated topic
 * terms, rare exact tokens) rather than lorem ipsum. Deterministic given the PRNG.
 */

/** mulberry32 (the seed writer's): same seed, same corpus. */
export { rng } from '../../electron/engine/app/demo/seed-writer';

export type Rand = () => number;

export function pick<T>(r: Rand, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T;
}

export function int(r: Rand, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}

export const PEOPLE = ['Dana', 'Kenji', 'Priya', 'Marco', 'Lea', 'Tomás', 'Aiko', 'Sam', 'Noor', 'Felix', 'Ingrid', 'Wei', 'Olu', 'Hana', 'Ravi', 'Zoe'];

export const TOPICS = [
  'search pipeline', 'release', 'database migration', 'compaction', 'packaging', 'budget', 'hiring', 'garden',
  'travel', 'health', 'reading list', 'home network', 'backups', 'onboarding', 'customer support', 'pricing',
  'mobile app', 'observability', 'security review', 'design system', 'tax return', 'apartment move', 'cycling', 'cooking',
];

const VERBS = ['reviewed', 'fixed', 'discussed', 'planned', 'postponed', 'measured', 'rewrote', 'documented', 'tested', 'shipped', 'debugged', 'sketched', 'cancelled', 'benchmarked', 'deployed', 'migrated'];
const OBJECTS = [
  'the retry logic', 'the onboarding flow', 'the nightly backup job', 'the index rebuild', 'the invoice export', 'the settings page',
  'the login timeout', 'the flaky integration test', 'the memory flush prompt', 'the CSV importer', 'the sync watcher', 'the router firmware',
  'the grocery list', 'the vacation itinerary', 'the dentist appointment', 'the quarterly report', 'the API rate limits', 'the error dashboard',
  'the dark mode colours', 'the keyboard shortcuts', 'the PDF renderer', 'the cache eviction policy', 'the webhook signatures', 'the release notes',
];
const REASONS = [
  'because the old approach leaked file handles', 'after the outage on the staging cluster', 'since the customer asked twice', 'to unblock the beta testers',
  'because latency doubled under load', 'as agreed in the weekly sync', 'to cut the cloud bill', 'because the docs were wrong', 'after reading the postmortem',
  'since the deadline moved up', 'because the tests were too slow', 'to keep the state dir plain files', 'after a long chat about trade-offs',
];
const FEELINGS = ['Felt productive.', 'Tired but fine.', 'Too many meetings today.', 'Good focus in the morning.', 'Slept badly, slow start.', 'Lunch walk helped.', 'Rainy day, stayed in.'];
const ERRORS = ['ECONNREFUSED', 'ETIMEDOUT', 'SQLITE_BUSY', 'EADDRINUSE', 'ENOSPC', 'ERR_MODULE_NOT_FOUND', 'TypeError: cannot read properties of undefined', 'HTTP 429 Too Many Requests', 'segfault in libvips'];
const KEYS = [
  'agents.defaults.memorySearch.query.minScore', 'agents.defaults.compaction.reserveTokensFloor', 'memorySearch.chunking.tokens', 'server.port',
  'logging.level', 'backup.retentionDays', 'sync.watchDebounceMs', 'llm.contextTokens', 'ui.theme', 'telemetry.enabled',
];
const PATHS = ['/etc/nginx/sites-enabled/cairn', '~/.config/cairn/cairn.json', '/var/log/syslog', 'src/engine/index/sync.ts', '/mnt/nas/backups', 'docs/architecture.md', 'scripts/release.sh'];
const CJK = [
  '今天和团队讨论了发布计划，决定下周再发布。', '预算审查推迟到周四。', '需要备份数据库并检查日志。', '我们决定把搜索的权重调低一点。',
  '東京で新しいプロジェクトの打ち合わせがありました。', '明日の会議は午後三時からです。', 'バックアップの設定を確認する必要があります。', '検索の精度を評価しました。',
];

export function hex(r: Rand, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(r() * 16)];
  return s;
}

/**
 * Free words with a natural (Zipf) frequency spread, drawn from a frequency-ranked English
 * vocabulary: real notes mention thousands of distinct words, most of them rarely, so a
 * query term matches a few percent of chunks — not half of them, as a small template
 * vocabulary would make it (which would overstate BM25's cost on an OR query).
 */
let vocabulary: readonly string[] = ['note'];

/** Set the vocabulary (frequency-ranked, most frequent first) used by {@link freeWords}. */
export function setVocabulary(words: readonly string[]): void {
  if (words.length > 0) vocabulary = words;
}

export function freeWords(r: Rand, n: number): string {
  const out: string[] = [];
  const ln = Math.log(vocabulary.length);
  for (let i = 0; i < n; i++) out.push(vocabulary[Math.min(vocabulary.length - 1, Math.floor(Math.exp(r() * ln)) - 1)]!);
  return out.join(' ');
}

/**
 * A thing worked on: rarely a stock phrase, else words from the whole vocabulary — 24 stock
 * phrases alone would put each in about half of all chunks (a chunk holds ~17 lines), far
 * more often than any one topic occurs in a real memory; now each is in ~2–4% of chunks.
 */
function obj(r: Rand): string {
  return r() < 0.08 ? pick(r, OBJECTS) : `the ${freeWords(r, int(r, 1, 2))}`;
}

function reason(r: Rand): string {
  return r() < 0.1 ? pick(r, REASONS) : `because of the ${freeWords(r, int(r, 2, 3))}`;
}

/** One realistic note line: a bullet with a decision, a TODO, an identifier or a remark. */
export function noteLine(r: Rand, topic: string): string {
  const who = pick(r, PEOPLE);
  // Half the lines carry a free remark, as people jot context next to the facts.
  const tail = r() < 0.5 ? ` (${freeWords(r, int(r, 4, 12))})` : '';
  return coreLine(r, topic, who) + tail;
}

function coreLine(r: Rand, topic: string, who: string): string {
  switch (int(r, 0, 11)) {
    case 0:
      return `- Decision (${topic}): ${pick(r, VERBS)} ${obj(r)} ${reason(r)}.`;
    case 1:
      return `- TODO: ask ${who} about ${obj(r)} before ${pick(r, ['Friday', 'the release', 'the demo', 'next sprint', 'month end'])}.`;
    case 2:
      return `- Deployed commit \`${hex(r, 10)}\` to ${pick(r, ['staging', 'production', 'the beta channel'])}; ${pick(r, ['no errors', 'two warnings', 'rolled back once'])}.`;
    case 3:
      return `- Saw \`${r() < 0.3 ? pick(r, ERRORS) : `E${freeWords(r, 1).toUpperCase()}`}\` on port ${int(r, 1024, 65000)} while ${pick(r, VERBS)} ${obj(r)}.`;
    case 4:
      return `- Set \`${pick(r, KEYS)}\` to ${int(r, 1, 50000)} in ${pick(r, PATHS)}.`;
    case 5:
      return `- ${who} ${pick(r, VERBS)} ${obj(r)} ${reason(r)}; follow up in ${int(r, 2, 14)} days.`;
    case 6:
      // Eight fixed CJK sentences: rarer, or each would be in ~12% of chunks.
      return r() < 0.25 ? `- ${pick(r, CJK)}` : `- ${who}: ${freeWords(r, int(r, 5, 10))}.`;
    case 7:
      return `- Spent ${int(r, 1, 6)}h on ${topic}: ${pick(r, VERBS)} ${obj(r)} and ${pick(r, VERBS)} ${obj(r)}.`;
    case 8:
      return `- ${pick(r, FEELINGS)} ${pick(r, FEELINGS)}`;
    case 9:
      return `- Meeting with ${who} and ${pick(r, PEOPLE)} about ${topic}; we ${pick(r, VERBS)} ${obj(r)} ${reason(r)}.`;
    case 10:
      return `- Idea: ${pick(r, ['automate', 'simplify', 'measure', 'drop', 'document'])} ${obj(r)} for ${topic} (${pick(r, ['cheap', 'risky', 'worth a spike', 'needs data'])}).`;
    default:
      return `- Read about ${topic} and ${pick(r, TOPICS)}; the key point: ${obj(r)} matters more than ${obj(r)}.`;
  }
}

/** A Markdown section: heading + `lines` note lines about one topic. */
export function section(r: Rand, lines: number): string {
  const topic = pick(r, TOPICS);
  const out = [`## ${topic[0]!.toUpperCase()}${topic.slice(1)}`, ''];
  for (let i = 0; i < lines; i++) out.push(noteLine(r, topic));
  out.push('');
  return out.join('\n');
}

/** A user question in a transcript. */
export function userTurn(r: Rand): string {
  const topic = pick(r, TOPICS);
  return pick(r, [
    `Can you help me with ${topic}? I ${pick(r, VERBS)} ${obj(r)} yesterday and I am not sure it was right.`,
    `What did we decide about ${obj(r)} last time?`,
    `I keep getting ${pick(r, ERRORS)} when I run ${pick(r, PATHS)}. Any idea?`,
    `Summarise where we are on ${topic} and what is left.`,
    `Remind me what ${pick(r, PEOPLE)} said about ${obj(r)}.`,
    `Please write down that ${pick(r, KEYS)} should stay at ${int(r, 1, 9000)}.`,
  ]);
}

/** An assistant answer: a few sentences, sometimes with an identifier. */
export function assistantTurn(r: Rand): string {
  const parts: string[] = [];
  const n = int(r, 2, 7);
  for (let i = 0; i < n; i++) parts.push(noteLine(r, pick(r, TOPICS)).replace(/^- /, ''));
  return parts.join(' ');
}
