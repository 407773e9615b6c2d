/**
 * Writes the retrieval-eval memory into bench/eval-data/workspace/ (committed; rerun only
 * when bench/lib/eval-facts.ts changes): six months of daily notes (2026-05-04 … 2026-10-30)
 * made of routine filler lines (seeded) plus the hand-written facts, MEMORY.md and a few
 * evergreen notes. Days whose facts answer a paraphrase query get no filler, so the eval can
 * check that those queries share no word with their answer.
 *
 *   node --import tsx bench/lib/make-eval-data.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hex, int, pick, rng } from './corpus-text';
import { DAILY_FACTS, DUPLICATES, EVERGREEN, MEMORY_MD } from './eval-facts';

const here = path.dirname(fileURLToPath(import.meta.url));
export const EVAL_DIR = path.resolve(here, '..', 'eval-data');

/** Routine lines with no answer in them; some carry decoy identifiers. */
const FILLER = [
  'Gym at 7: legs and core, 45 minutes.', 'Answered email backlog, inbox at zero by noon.', 'Rainy all day; worked from the kitchen table.',
  'Lunch with Sam at the Vietnamese place on Weserstraße.', 'Reviewed two pull requests for the settings page.', 'Read forty pages of "The Overstory".',
  'Long call with the bank about the standing order; sorted.', 'Cleaned the balcony and took the glass to the recycling.', 'Paired with Lea on the flaky watcher test.',
  'Wrote the weekly update for the team channel.', 'Cooked a big pot of chilli for the week.', 'Evening walk along the Landwehrkanal.',
  'Planning poker for the next sprint; estimates look optimistic.', 'Fixed typos in the README and the contributing guide.', 'Called Grandma; she is fine.',
  'Sorted the receipts for the tax folder.', 'Podcast on distributed systems during the commute.', 'Updated the project board and closed stale tickets.',
  'Tried a new bakery on the corner; good sourdough.', 'Watched the football with Felix.', 'Design review of the onboarding screens with Aiko.',
  'Meditated ten minutes before bed.', 'Laundry, hoovering, ironing shirts.', 'Bought a birthday card for Noor.', 'Dependabot bumped eslint; merged after CI.',
  'Slow afternoon; headache after lunch.', 'Drafted the quarterly goals document.', 'Coffee with Ravi to talk about the mobile app roadmap.',
  'Refactored the config loader; tests green.', 'Checked the plants; watered the herbs.', 'Read the postmortem of the login outage.',
];

function decoy(r: () => number): string {
  switch (int(r, 0, 4)) {
    case 0:
      return `Deployed commit \`${hex(r, 10)}\` to staging; no errors.`;
    case 1:
      return `Local preview runs on port ${int(r, 4000, 9999)}.`;
    case 2:
      return `Ticket OPS-${int(r, 100, 999)} closed.`;
    case 3:
      return `Log rotated at /var/log/app/${pick(r, ['api', 'worker', 'cron'])}.log.`;
    default:
      return `Ping to 10.${int(r, 0, 255)}.${int(r, 0, 255)}.${int(r, 1, 254)} ok.`;
  }
}

/** Days whose facts answer paraphrase queries: no filler there. */
export const NO_FILLER = new Set([
  '2026-06-03', '2026-05-19', '2026-07-14', '2026-08-22', '2026-06-27', '2026-09-08', '2026-07-30', '2026-05-25',
  '2026-08-05', '2026-10-02', '2026-06-16', '2026-09-21', '2026-07-07', '2026-08-13', '2026-09-26',
]);

export function buildEvalWorkspace(root: string): string[] {
  const r = rng(4242);
  const ws = path.join(root, 'workspace');
  fs.rmSync(ws, { recursive: true, force: true });
  fs.mkdirSync(path.join(ws, 'memory', 'notes'), { recursive: true });
  const written: string[] = [];
  const write = (rel: string, text: string) => {
    fs.writeFileSync(path.join(ws, rel), text);
    written.push(rel);
  };
  write('MEMORY.md', MEMORY_MD);
  for (const [rel, text] of Object.entries(EVERGREEN)) write(`memory/${rel}`, text);
  const dup = new Map<string, string[]>();
  for (const d of DUPLICATES) d.days.forEach((day, i) => dup.set(day, [...(dup.get(day) ?? []), `## ${d.heading}`, d.lines(i), '']));
  for (let t = Date.UTC(2026, 4, 4); t <= Date.UTC(2026, 9, 30); t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    const facts = DAILY_FACTS[day];
    const dups = dup.get(day);
    // About a third of ordinary days have no note at all, as in real life.
    if (!facts && !dups && r() < 0.35) continue;
    const lines = [`# ${day}`, ''];
    if (!NO_FILLER.has(day)) {
      lines.push('## Log');
      const n = int(r, 2, 5);
      for (let i = 0; i < n; i++) lines.push(`- ${r() < 0.25 ? decoy(r) : pick(r, FILLER)}`);
      lines.push('');
    }
    if (dups) lines.push(...dups);
    if (facts) lines.push(...facts, '');
    write(`memory/${day}.md`, `${lines.join('\n').trimEnd()}\n`);
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = buildEvalWorkspace(EVAL_DIR);
  console.log(`wrote ${files.length} files into ${path.join(EVAL_DIR, 'workspace')}`);
}
