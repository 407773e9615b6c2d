/**
 * The health checks of MEMORY.md, each deterministic and with its evidence:
 * - near-duplicates by normalised text (the same content words, or ≥ 80 % of them shared);
 * - contradictions: an entry and a later daily-note line about the same subject that give the
 *   same kind of key (a port, a version, an address/host, a code) a different value;
 * - stale sources: an entry citing a note or lines that no longer exist, or lines that no
 *   longer say what the entry says.
 */
import type { HealthItem } from '../../../shared/types/audit';
import { contentWords, itemKept, keptCorpus } from '../compaction/audit-keep';
import { withoutLine, type MemoryEntry } from './entries';

const MEMORY = 'MEMORY.md';

/** The normalised form two entries are compared by. */
export function normalisedWords(text: string): string[] {
  return contentWords(text.replace(/[`*_]/g, '')).map((w) => w.replace(/(?<=\w{3})(?:ies|es|s)$/, ''));
}

/** Near-duplicates: the later entry of each pair, with the earlier as evidence and its removal as the fix. */
export function duplicateItems(entries: readonly MemoryEntry[], fileText: string): HealthItem[] {
  const out: HealthItem[] = [];
  const words = entries.map((e) => new Set(normalisedWords(e.text)));
  const flagged = new Set<number>();
  for (let j = 0; j < entries.length; j++) {
    const b = words[j] as Set<string>;
    if (b.size < 2) continue;
    for (let i = 0; i < j; i++) {
      if (flagged.has(i)) continue;
      const a = words[i] as Set<string>;
      let shared = 0;
      for (const w of a) if (b.has(w)) shared++;
      const union = a.size + b.size - shared;
      if (union === 0 || shared / union < 0.8) continue;
      const ea = entries[i] as MemoryEntry;
      const eb = entries[j] as MemoryEntry;
      const same = shared === union;
      out.push({
        kind: 'duplicate',
        entry: { path: MEMORY, line: eb.line, text: eb.text },
        message: `${same ? 'The same fact as' : 'Nearly the same as'} line ${ea.line}${same ? '' : ` (${Math.round((shared / union) * 100)} % of the words)`}.`,
        evidence: [{ path: MEMORY, line: ea.line, text: ea.text }],
        detail: 'text',
        fix: same || eb.text.length <= ea.text.length ? { kind: 'remove', path: MEMORY, text: withoutLine(fileText, eb.line) } : { kind: 'merge', path: MEMORY, text: mergedInto(fileText, ea, eb) },
      });
      flagged.add(j);
      break;
    }
  }
  return out;
}

/** `later` says more than `earlier`: its line takes the earlier one's place, and is removed below. */
function mergedInto(fileText: string, earlier: MemoryEntry, later: MemoryEntry): string {
  const lines = withoutLine(fileText, later.line).split('\n');
  lines[earlier.line - 1] = later.raw;
  return lines.join('\n');
}

type KeyKind = 'port' | 'version' | 'address' | 'code';

interface Keyed {
  kind: KeyKind;
  value: string;
}

const KEYS: { kind: KeyKind; re: RegExp; group: number }[] = [
  { kind: 'port', re: /\bport\s*(?:is|=|:|to|of)?\s*(\d{2,5})\b/gi, group: 1 },
  { kind: 'port', re: /\b(?:localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+):(\d{2,5})\b/gi, group: 1 },
  { kind: 'version', re: /\b(?:version|v)\s*(\d+(?:\.\d+){1,3})\b/gi, group: 1 },
  { kind: 'version', re: /\b(\d+\.\d+\.\d+)\b/g, group: 1 },
  { kind: 'address', re: /\b(\d{1,3}(?:\.\d{1,3}){3})\b/g, group: 1 },
  { kind: 'address', re: /\b([\w.+-]+@[\w-]+(?:\.[\w-]+)+)\b/g, group: 1 },
  { kind: 'address', re: /\b((?:https?:\/\/)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|dev|internal|local|lan|cloud|app))\b/gi, group: 1 },
  { kind: 'code', re: /\b([A-Z][A-Z0-9]+-\d+)\b/g, group: 1 },
  { kind: 'code', re: /\bcode\s*(?:is|=|:)?\s*([A-Za-z0-9][\w-]{2,})\b/gi, group: 1 },
];

/** The keyed values a line gives (at most one per kind: the first). */
export function keyedValues(text: string): Keyed[] {
  const out = new Map<KeyKind, string>();
  for (const k of KEYS) {
    if (out.has(k.kind)) continue;
    k.re.lastIndex = 0;
    const m = k.re.exec(text);
    if (m?.[k.group]) out.set(k.kind, m[k.group] as string);
  }
  return [...out].map(([kind, value]) => ({ kind, value }));
}

/** The subject words of a line: its content words without numbers and the values it gives. */
function subject(text: string, values: readonly string[]): Set<string> {
  let t = text;
  for (const v of values) t = t.split(v).join(' ');
  return new Set(normalisedWords(t).filter((w) => !/^\d/.test(w) && !['port', 'version', 'code', 'address', 'host'].includes(w)));
}

/** A later daily note's line. */
export interface NoteLine {
  path: string;
  date: string;
  line: number;
  text: string;
}

/** Entries whose key got a new value in a later daily note (the newest such line is the evidence). */
export function contradictionItems(entries: readonly MemoryEntry[], notes: readonly NoteLine[]): HealthItem[] {
  const out: HealthItem[] = [];
  const noteKeys = notes.map((n) => {
    const kv = keyedValues(n.text);
    return { n, kv, subj: subject(n.text, kv.map((k) => k.value)) };
  });
  // Newest first, so the evidence is the latest word on the key.
  noteKeys.sort((a, b) => b.n.date.localeCompare(a.n.date) || b.n.line - a.n.line);
  for (const e of entries) {
    const kv = keyedValues(e.text);
    if (!kv.length) continue;
    const subj = subject(e.text, kv.map((k) => k.value));
    if (subj.size === 0) continue;
    let hit: { n: NoteLine; key: Keyed; was: string } | undefined;
    for (const { n, kv: nkv, subj: nsubj } of noteKeys) {
      if (e.date && n.date < e.date) continue;
      if (e.cites && n.path === e.cites.path && (e.cites.from === undefined || (n.line >= e.cites.from && n.line <= (e.cites.to ?? e.cites.from)))) continue;
      let shared = 0;
      for (const w of subj) if (nsubj.has(w)) shared++;
      if (shared < Math.min(2, subj.size, nsubj.size) || shared === 0) continue;
      for (const k of kv) {
        const nk = nkv.find((x) => x.kind === k.kind);
        if (nk && nk.value.toLowerCase() !== k.value.toLowerCase() && !n.text.includes(k.value)) {
          hit = { n, key: nk, was: k.value };
          break;
        }
      }
      if (hit) break;
    }
    if (!hit) continue;
    out.push({
      kind: 'contradiction',
      entry: { path: MEMORY, line: e.line, text: e.text },
      message: `Says ${hit.key.kind} ${hit.was}; ${hit.n.path} (${hit.n.date}) says ${hit.key.value}.`,
      evidence: [{ path: hit.n.path, line: hit.n.line, text: hit.n.text }],
      detail: hit.key.kind,
    });
  }
  return out;
}

/** Entries citing a source that is gone, or lines that no longer say what the entry says. */
export function staleSourceItems(entries: readonly MemoryEntry[], readNote: (rel: string) => string | undefined, fileText: string): HealthItem[] {
  const out: HealthItem[] = [];
  for (const e of entries) {
    if (!e.cites) continue;
    const src = readNote(e.cites.path);
    const where = `${e.cites.path}${e.cites.from ? `#L${e.cites.from}${e.cites.to && e.cites.to !== e.cites.from ? `-L${e.cites.to}` : ''}` : ''}`;
    let message: string | undefined;
    let evidence: HealthItem['evidence'] = [];
    if (src === undefined) message = `Cites ${where}, which no longer exists.`;
    else if (e.cites.from !== undefined) {
      const lines = src.split('\n');
      const to = Math.min(e.cites.to ?? e.cites.from, lines.length);
      if (e.cites.from > lines.length) message = `Cites ${where}, but ${e.cites.path} has only ${lines.length} lines.`;
      else {
        const cited = lines.slice(e.cites.from - 1, to).join('\n');
        if (!itemKept(e.text, keptCorpus([cited]))) {
          message = `Cites ${where}, which no longer says this.`;
          evidence = [{ path: e.cites.path, line: e.cites.from, text: cited.trim() }];
        }
      }
    }
    if (message) out.push({ kind: 'stale-source', entry: { path: MEMORY, line: e.line, text: e.text }, message, evidence, fix: { kind: 'remove', path: MEMORY, text: withoutLine(fileText, e.line) } });
  }
  return out;
}
