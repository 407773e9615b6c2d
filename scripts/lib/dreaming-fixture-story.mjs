/**
 * What happens in the dreaming fixture (make-openclaw-dreaming-fixture.mjs): the person's
 * notes, USER.md and MEMORY.md as they start, the days and their turns (each `[[search: …]]`
 * makes the scripted model call OpenClaw's memory_search once per query), and the scripted
 * model's answer to dreaming's consolidation request.
 *
 * Designed outcomes (OpenClaw decides them; this only supplies the recalls):
 * - the Glacier backup note (day 1) is recalled 4× with 4 distinct queries over two days: it
 *   qualifies and is the one `memory promote --apply --limit 1` appends;
 * - the camera VLAN note (day 2) qualifies too and is left for the sweep, whose consolidation
 *   (answered by the scripted model: "added") rewrites MEMORY.md, so OpenClaw keeps the text
 *   before it (a "superseded" answer is rejected without OpenClaw's own lineage key, a
 *   "merged" one unless the prior entry states the same fact);
 * - the NAS snapshot note (written the day before day 1) is recalled 4× with 4 queries over
 *   three days: it qualifies at the sweep too, but the sweep's limit is 1
 *   (`phases.deep.limit`), so the deep report says "Not promoted: 1 candidate(s) (selection
 *   limit: 1)";
 * - the Lisbon note (day 3) is recalled 3× with ONE query: it fails the distinct-query gate;
 * - the dentist note (day 4) is recalled twice: it fails the recall-count gate.
 */

/** The four days lived, each with its turns (time of the turn, session id, message). */
export const days = [
  {
    date: '2026-11-30',
    turns: [
      { at: '2026-11-30T09:00:00Z', session: 'd1-backups', message: 'Where do the backups go again? [[search: glacier backup | nas glacier sync]]' },
      { at: '2026-11-30T18:30:00Z', session: 'd1-evening', message: 'Just saying good evening, nothing to look up.' },
    ],
  },
  {
    date: '2026-12-01',
    turns: [{ at: '2026-12-01T09:10:00Z', session: 'd2-network', message: 'Which VLAN are the cameras on now? [[search: cameras vlan | router vlan config | glacier restore test | nas snapshots]]' }],
  },
  {
    date: '2026-12-02',
    turns: [
      { at: '2026-12-02T08:40:00Z', session: 'd3-morning', message: 'When is my flight? [[search: lisbon flight | lisbon flight | lisbon flight]]' },
      { at: '2026-12-02T17:00:00Z', session: 'd3-evening', message: 'Remind me about the network and backups. [[search: iot vlan cameras | sunday backups glacier | camera vlan 30 | snapshots kept | snapshots pruned]]' },
    ],
  },
  { date: '2026-12-03', turns: [{ at: '2026-12-03T07:30:00Z', session: 'd4-morning', message: 'What is on today? [[search: dentist appointment | dentist tuesday | snapshots 14 days]]' }] },
];

/** The person's daily notes, written at the start of each day (day 1 also writes the day before's). */
export const dailyNotes = {
  '2026-11-29': ['# 2026-11-29', '', '- NAS snapshots are kept for 14 days before they are pruned.', ''].join('\n'),
  '2026-11-30': [
    '# 2026-11-30',
    '',
    '- Backups: the NAS syncs to Glacier every Sunday at 02:00; restore test on the first Sunday of each month.',
    '',
  ].join('\n'),
  '2026-12-01': [
    '# 2026-12-01',
    '',
    '- Moved the cameras to VLAN 30 (IoT is VLAN 40); the router config was saved as router-2026-12-01.cfg.',
    '',
  ].join('\n'),
  '2026-12-02': [
    '# 2026-12-02',
    '',
    '- Lisbon flight TP1353 leaves Friday 07:05 from terminal 1.',
    '',
  ].join('\n'),
  '2026-12-03': ['# 2026-12-03', '', '- Dentist appointment moved to Tuesday 15:30.', ''].join('\n'),
};

/** MEMORY.md as the person wrote it before any promotion: annotated entries as OpenClaw documents them. */
export const initialMemory = [
  '# Long-Term Memory',
  '',
  '- The cameras are on VLAN 20.',
  '- Keep the gateway on loopback. <!-- trigger: gateway setup, network safety --> <!-- importance: 9 -->',
  '- Use the release helper for package validation. <!-- project: github.com/openclaw/openclaw -->',
  '- Coffee order: flat white, no sugar. <!-- importance: 3 -->',
  '',
].join('\n');

/** USER.md: preferences as rules, one with a trigger. */
export const userMd = [
  '# USER.md',
  '',
  '- Prefers short answers with the command first.',
  '- Writes dates as YYYY-MM-DD. <!-- trigger: date format, calendar --> <!-- importance: 6 -->',
  '- Timezone: Europe/Lisbon.',
  '',
].join('\n');

/**
 * The scripted model's answer to dreaming's consolidation request (a JSON plan of one
 * operation per candidate: every candidate `added`), and a line for the Dream Diary. Other
 * requests get the default answer (undefined).
 */
export function consolidationAnswer(body, userText) {
  const system = (body.messages ?? []).filter((m) => m.role === 'system').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
  if (!system.includes('Choose how to incorporate each supplied candidate into MEMORY.md')) {
    if (/dream|diary/i.test(system)) return 'The notes drifted like tide charts: backups sleeping in cold Glacier vaults, cameras moving house to a new VLAN, a flight to Lisbon waiting at dawn.';
    return undefined;
  }
  const start = userText.indexOf('{"currentMemory"');
  const prompt = JSON.parse(userText.slice(start, userText.lastIndexOf('}') + 1));
  const operations = prompt.candidates.map((c) => ({ candidateKey: c.key, action: 'added', priorEntries: [] }));
  return JSON.stringify({ operations });
}
