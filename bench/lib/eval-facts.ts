/**
 * The hand-written part of the retrieval eval memory (bench/eval-data/): the notes that
 * answer the known-answer queries, by date (daily notes) or file (evergreen), including
 * older, conflicting decisions for the temporal asks and near-duplicate standups for MMR.
 * bench/lib/make-eval-data.ts mixes them with routine filler days into the workspace.
 */


/** Lines (Markdown, without the title) added to a daily note, keyed by date. */
export const DAILY_FACTS: Record<string, string[]> = {
  // Paraphrase targets: the queries share no word with these notes.
  '2026-06-03': ['## Miso', '- Switched Miso to grain-free salmon kibble; the vet thinks the itchy skin comes from chicken.'],
  '2026-05-19': ['## Garage', '- The garage replaced the worn brake pads and rotors on the Golf; paid 480 EUR.'],
  '2026-07-14': ['## Sleep', '- Bought blackout curtains and a white-noise machine; fell asleep faster all week.'],
  '2026-08-22': ['## Flat', '- Landlord agreed to repaint the bedroom and fix the dripping bathroom tap before September.'],
  '2026-06-27': ['## Savings', '- Moved 5,000 EUR of savings into a low-cost index fund, with a monthly top-up of 300.'],
  '2026-09-08': ['## Check-up', '- Doctor says my cholesterol is slightly high: less cheese and red meat, recheck in March.'],
  '2026-07-30': ['## Evenings', '- Started a Spanish course at the Volkshochschule, Tuesdays and Thursdays from 18:00.'],
  '2026-05-25': ['## Balcony', '- Planted tomatoes, basil and courgettes on the balcony; the chilli seedlings died in the cold snap.'],
  '2026-08-05': ['## Commute', '- Went by bicycle every day this week, about 14 km each way along the canal.'],
  '2026-10-02': ['## Family', "- Mum's birthday dinner at the Greek place on Saturday; Dad booked the table for eight people."],
  '2026-06-16': ['## Laptop', '- IT swapped my ThinkPad for an X1 Carbon with 32 GB RAM after the old one kept overheating.'],
  '2026-09-21': ['## Autumn break', '- Booked flights to Lisbon for 12 to 19 October; hotel in Alfama, seven nights.'],
  '2026-07-07': ['## 10K', '- Finished the city 10K in 52:14, a personal best by almost two minutes.'],
  '2026-08-13': ['## Books', "- Finished 'Project Hail Mary'; loved the alien friendship, recommended it to Dana."],
  '2026-09-26': ['## Plants', '- Repotted the monstera into a bigger terracotta pot; it had roots growing out of the bottom.'],
  // Exact tokens: hashes, config keys, error strings, ports, paths, versions, ids.
  '2026-06-10': ['## Hotfix', '- The export crash hotfix is commit `7f3a9c2e41`; cherry-picked onto release/2.4.'],
  '2026-07-21': ['## Compaction', '- Set `agents.defaults.compaction.reserveTokensFloor` to 24000 for the long refactor session.'],
  '2026-08-18': ['## Sync worker', '- The sync worker dies with `ERR_SOCKET_CONNECTION_TIMEOUT` whenever the VPN is up.'],
  '2026-05-28': ['## Monitoring', '- Grafana moved to port 3300, because 3000 clashes with the dev server.'],
  '2026-09-15': ['## Backups', '- The nightly restic log lives at `/var/log/restic/nightly.log`; it rotates weekly.'],
  '2026-10-07': ['## Postgres', '- The Postgres 17 upgrade failed with `FATAL: database files are incompatible with server`.'],
  '2026-06-22': ['## Staging', '- Staging box is 10.42.7.19 now; ssh in as the deploy user.'],
  '2026-07-02': ['## Flags', '- Feature flag `search.hybrid.mmrEnabled` stays off until the eval passes.'],
  '2026-09-29': ['## Rollback', '- Rolled back to v2.7.3 after v2.8.0 broke the SSO login for two customers.'],
  '2026-08-27': ['## Guests', '- Rotated the guest Wi-Fi password; the network name is `casa-gast-5G`.'],
  '2026-05-12': ['## CI', '- CI failed with `ENOSPC: no space left on device` on runner ci-04; pruned old docker images.'],
  '2026-10-14': ['## Invoices', '- Hetzner invoice INV-2026-0417 is still unpaid; reminder sent.'],
  '2026-07-24': ['## Cache', '- Commit `b81d04f` switched the embedding cache key to (provider, model, hash).'],
  '2026-09-03': ['## Uploads', '- nginx answered `413 Request Entity Too Large` for big uploads; raised client_max_body_size to 25m.'],
  '2026-06-29': ['## Proxy', '- After the certificate renewal the reverse proxy returned HTTP 502 Bad Gateway for an hour.'],
  // CJK (Chinese, Japanese), with decoys sharing some characters.
  '2026-06-18': ['## 会议', '- 和王经理讨论了第三季度的预算，决定削减广告费用百分之十。'],
  '2026-06-25': ['## 财务', '- 预算表格已经更新，发给了财务部。'],
  '2026-07-09': ['## 周末', '- 周末去杭州看望外婆，坐高铁两个小时。'],
  '2026-08-30': ['## 出張', '- 来月の京都出張のホテルを予約しました。三泊です。'],
  '2026-05-30': ['## 写真', '- 京都の紅葉の写真を整理した。'],
  '2026-09-12': ['## エディタ', '- 新しいエディタの設定をチームに共有した。ショートカットの一覧も作成した。'],
  '2026-10-20': ['## 搬家', '- 搬家公司定在十一月八号，报价两千八百元。', '', '## Car', '- Decided to sell the Golf before winter; listed it for 9,500 EUR.'],
  '2026-05-15': ['## 予定', '- 歯医者の予約は金曜日の午前十時です。'],
  // Temporal: an older decision and the one from last week (or yesterday).
  '2026-08-11': ['## Offsite', '- Decided: the team offsite is in Leipzig in September.'],
  '2026-10-21': ['## Offsite', '- Decided: the winter offsite moves to Hamburg, first week of December.'],
  '2026-06-08': ['## Sync service', '- Decision: the sync service prototype uses SQLite.'],
  '2026-10-22': ['## Sync service', '- Decision: the sync service database is Postgres after all; SQLite locked up under concurrent writers.'],
  '2026-07-01': ['## Gym', '- Decided to cancel the gym membership and run outside instead.'],
  '2026-10-23': ['## Gym', '- Decided to rejoin the gym for the winter: 39 EUR a month, contract until March.'],
  '2026-05-20': ['## Newsletter', '- Newsletter: decided to send it monthly, first Monday.'],
  '2026-10-19': ['## Newsletter', '- Newsletter: decided to go biweekly starting in November.'],
  '2026-09-01': ['## Release 3.0', '- Release 3.0 is planned for 15 October.'],
  '2026-10-24': ['## Release 3.0', '- Decision: release 3.0 slips to 12 November because of the SSO bug.'],
  '2026-06-30': ['## Car', '- Thinking about selling the Golf next spring.'],
  '2026-05-08': ['## Kitchen', '- Decided to keep the old espresso machine for another year.'],
  '2026-10-25': ['## Kitchen', '- Decided to replace the espresso machine with a Sage Bambino.'],
  '2026-07-15': ['## Code freeze', '- Agreed with Priya: the 2.5 code freeze starts on Friday.'],
  '2026-10-29': ['## Code freeze', '- Agreed with Priya: the 3.0 code freeze starts on Monday.'],
  // Near duplicates (MMR): the real incident hides behind many look-alike status notes.
  '2026-09-24': ['## Standup', '- Deploy step failed all morning: the code-signing key had expired; Marco rotated it.'],
  '2026-10-12': ['## Groceries', '- Ran out of coffee beans again; ordered a 1 kg bag online from the roastery in Neukölln.'],
  '2026-08-20': ['## Health log', '- Weight 77.1 kg: the lowest this year, two months after cutting out sugar.'],
  // Ordinary questions that share words with their note.
  '2026-06-05': ['## Search', '- Dana suggested OR-ing the BM25 terms so that long questions still match.'],
  '2026-08-08': ['## Packaging', '- Kenji owns the Windows installer from now on.'],
  '2026-09-10': ['## Dentist', '- Dentist: two fillings done, next check-up in six months.'],
  '2026-07-18': ['## Passport', '- Renewed my passport; the new one expires in July 2036.'],
  '2026-10-09': ['## Memory flush', '- Wrote the memory flush prompt: it asks the model to save decisions and TODOs before compaction.'],
};

/** Near-duplicate notes: the same routine line on many days (MMR should spread them out). */
export const DUPLICATES: { days: string[]; heading: string; lines: (i: number) => string }[] = [
  {
    heading: 'Standup',
    days: ['2026-09-14', '2026-09-15', '2026-09-16', '2026-09-17', '2026-09-18', '2026-09-21', '2026-09-22', '2026-09-23'],
    lines: (i) => `- Standup: deploy pipeline green, CI pipeline green, nothing blocking the deploy. Reviewed deploy pipeline PR #${410 + i}.`,
  },
  {
    heading: 'Groceries',
    days: ['2026-09-05', '2026-09-12', '2026-09-19', '2026-09-26', '2026-10-03', '2026-10-10', '2026-10-17'],
    lines: (i) => `- Groceries: oat milk, eggs, spinach, rye bread, coffee beans${i % 2 ? ', apples' : ''}.`,
  },
  {
    heading: 'Health log',
    days: ['2026-08-12', '2026-08-13', '2026-08-14', '2026-08-15', '2026-08-16', '2026-08-17', '2026-08-18', '2026-08-19'],
    lines: (i) => `- Health log: weight ${(78.4 - i * 0.1).toFixed(1)} kg, slept ${6 + (i % 3)} h, walked ${8 + i} k steps.`,
  },
];

export const MEMORY_MD = `# Long-term memory

## About me
- Name: Robin Keller. Lives in Berlin (Neukölln) with the cat Miso.
- Allergic to penicillin.
- Prefers answers in British English with metric units.
- Works on Cairn, an offline workbench for assistant memory.

## Standing decisions
- Memory is plain Markdown; the index can always be rebuilt.
- Never put API keys in memory files.
`;

/** Evergreen notes (never decay): file name → content. */
export const EVERGREEN: Record<string, string> = {
  'notes/home-network.md': `# Home network

- Router: Fritz!Box 7590 in the hallway; a mesh repeater in the study.
- DNS through Pi-hole on 192.168.1.2; DHCP stays on the router.
- NAS: Synology DS220+, shares mounted at /mnt/nas.
`,
  'notes/recipes.md': `# Recipes

## Dal
- Red lentils, cumin, turmeric, garlic; simmer 25 minutes, finish with lemon.

## Overnight oats
- Oats, yoghurt, milk, grated apple, cinnamon; leave in the fridge.
`,
  'notes/travel-japan.md': `# Japan trip notes

- The JR Pass is not worth it for one Tokyo–Kyoto round trip: buy single Shinkansen tickets.
- Suica card works in convenience stores too.
`,
};
