/**
 * What the deterministic extract can do with a user's compaction instructions. Without a model, "keep every port number" or "focus on the database" cannot be
 * followed by understanding, but some instructions map onto what an extract does anyway:
 * a class of identifiers to keep first (and, for ports, to look for harder), or words whose
 * lines get their own section. Everything else is refused visibly — the note goes into the
 * extract, the entry's details and the dry run — never silently stored and ignored.
 */
import { isStopWord } from '../../../shared/text/stop-words';

export type IdentifierClass = 'ports' | 'paths' | 'urls' | 'hashes' | 'versions' | 'emails' | 'ids';

const CLASS_WORDS: { cls: IdentifierClass; re: RegExp; label: string }[] = [
  { cls: 'ports', re: /\bports?\b/i, label: 'port number' },
  { cls: 'urls', re: /\b(?:urls?|links?|endpoints?)\b/i, label: 'URL' },
  { cls: 'paths', re: /\b(?:paths?|files?|file ?names?|directories|folders?)\b/i, label: 'path' },
  { cls: 'hashes', re: /\b(?:hash(?:es)?|commits?|shas?|digests?|checksums?)\b/i, label: 'hash' },
  { cls: 'versions', re: /\bversions?\b/i, label: 'version' },
  { cls: 'emails', re: /\be-?mails?\b/i, label: 'e-mail address' },
  { cls: 'ids', re: /\b(?:ids?|identifiers?|names?|keys?|tickets?)\b/i, label: 'identifier' },
];

const FOCUS = /\b(?:focus(?:ing)?|concentrate|emphasi[sz]e|prioriti[sz]e)\s+(?:on|upon)?\s*(.+)$|\b(?:about|regarding|concerning)\s+(.+)$/i;
/** Vague words of an instruction that name no topic ("focus on every detail"), beside the shared stop words. */
const VAGUE = new Set(['every', 'stuff', 'things', 'details', 'everything', 'anything', 'parts', 'part', 'work', 'mostly']);
const notTopic = (w: string): boolean => isStopWord(w) || VAGUE.has(w);

export interface ExtractInstructions {
  /** Identifier classes asked for: listed first under Exact identifiers. */
  classes: IdentifierClass[];
  /** Words whose lines the extract lists under `## Focus`. */
  focus: string[];
  /** Instruction parts the extract cannot follow. */
  refused: string[];
  /** One line for the extract, the entry and the dry run; undefined without instructions. */
  note: string | undefined;
}

/** Interpret `texts` (customInstructions, a manual /compact's instructions) for the extract. */
export function interpretInstructions(...texts: (string | undefined)[]): ExtractInstructions {
  const classes: IdentifierClass[] = [];
  const focus: string[] = [];
  const refused: string[] = [];
  const clauses = texts
    .flatMap((t) => (t ?? '').split(/[.;\n!?]+|,\s*(?:and\s+|then\s+)?|\s+and\s+|\s+then\s+/i))
    .map((c) => c.trim())
    .filter(Boolean);
  for (const clause of clauses) {
    const f = FOCUS.exec(clause);
    const words = f ? (f[1] ?? f[2] ?? '').toLowerCase().match(/[\p{L}\p{N}_-]{3,}/gu)?.filter((w) => !notTopic(w)) ?? [] : [];
    const cls = CLASS_WORDS.filter((c) => c.re.test(clause)).map((c) => c.cls);
    if (cls.length && !f) {
      for (const c of cls) if (!classes.includes(c)) classes.push(c);
    } else if (words.length) {
      for (const w of words) if (!focus.includes(w)) focus.push(w);
    } else if (cls.length) {
      for (const c of cls) if (!classes.includes(c)) classes.push(c);
    } else refused.push(clause);
  }
  const done: string[] = [];
  if (classes.length) done.push(`every ${classes.map((c) => CLASS_WORDS.find((w) => w.cls === c)?.label).join(', ')} kept, listed first under Exact identifiers`);
  if (focus.length) done.push(`lines mentioning ${focus.map((w) => `"${w}"`).join(', ')} listed under Focus`);
  const parts: string[] = [];
  if (done.length) parts.push(`followed: ${done.join('; ')}`);
  if (refused.length) parts.push(`not followed (an extract copies lines, it cannot rewrite them without a model): ${refused.map((r) => `"${r}"`).join(', ')}`);
  return { classes, focus, refused, note: parts.length ? `Instructions ${parts.join('; ')}.` : undefined };
}

/** The class an identifier belongs to, for ordering the requested classes first. */
export function identifierClass(id: string): IdentifierClass {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(id)) return 'urls';
  if (/@/.test(id) && !/\//.test(id)) return 'emails';
  if (/(?::\d{2,5}$|^port\b|^\d{2,5}:\d{2,5}$|^--?p(?:ort)?[= ]\d{2,5}$)/i.test(id)) return 'ports';
  if (/^v?\d+\.\d+\.\d+/.test(id)) return 'versions';
  if (/^[0-9a-f]{7,64}$/i.test(id)) return 'hashes';
  if (/[\\/]|\.[A-Za-z0-9]{1,8}$/.test(id)) return 'paths';
  return 'ids';
}

// Port mentions the general finder leaves out because they are ambiguous in ordinary text:
// docker-style mappings (5432:5432), service:port (db:5432), --port 8080 / -p 8080.
const EXTRA_PORTS: RegExp[] = [/\b\d{2,5}:\d{2,5}\b/g, /\b[a-z][\w-]*:\d{2,5}\b/gi, /(?:--port[= ]|(?<![\w-])-p\s+)\d{2,5}\b/g];

/** Extra identifiers of the requested classes that the general finder does not report. */
export function findExtraIdentifiers(text: string, classes: readonly IdentifierClass[], into: Set<string>): void {
  if (!classes.includes('ports')) return;
  for (const re of EXTRA_PORTS) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) if (!/^(?:https?|ftp|file|mailto):/i.test(m[0])) into.add(m[0]);
  }
}
