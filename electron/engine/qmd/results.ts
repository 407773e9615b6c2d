/**
 * `qmd search|vsearch|query --json` output → Cairn's search results (SPEC §7 shape).
 *
 * QMD prints an array of `{docid, score, file: "qmd://<collection>/<handle>", line, title,
 * snippet}` where the snippet starts with a diff-style header `@@ -<start>,<count> @@ …`
 * giving the snippet's line range in the file. Cairn shows the workspace path, the line range
 * (blank edge lines trimmed), a snippet of at most 700 chars and `path#L<s>-L<e>`.
 */
import type { MemorySource, SearchResult } from '../../../shared/types/search';
import { parseQmdFile } from './handles';
import { QmdError } from './run';

/** SPEC §7: a snippet is at most this long. */
export const MAX_SNIPPET = 700;

interface RawHit {
  score?: unknown;
  file?: unknown;
  line?: unknown;
  snippet?: unknown;
  body?: unknown;
}

export type PathResolver = (collection: string, handle: string) => { path: string; source: MemorySource } | null;

/** Split QMD's snippet into its line range and text; `line` is QMD's best-match line. */
export function parseSnippet(snippet: string, line: number | undefined): { startLine: number; endLine: number; text: string } {
  const m = /^@@ -(\d+),(\d+) @@[^\n]*\n?/.exec(snippet);
  let lines: string[];
  let start: number;
  if (m) {
    start = Number(m[1]);
    lines = snippet.slice(m[0].length).split('\n');
    // The header counts `count` lines; QMD's text may end with one extra newline.
    lines = lines.slice(0, Math.max(1, Number(m[2])));
  } else {
    start = line && line > 0 ? line : 1;
    lines = snippet.split('\n');
  }
  // Trim blank lines at both ends so the cited range is the text shown.
  while (lines.length > 1 && !lines[0]!.trim()) {
    lines.shift();
    start++;
  }
  while (lines.length > 1 && !lines[lines.length - 1]!.trim()) lines.pop();
  const text = lines.join('\n');
  return { startLine: start, endLine: start + lines.length - 1, text };
}

function clip(text: string): string {
  return text.length > MAX_SNIPPET ? `${text.slice(0, MAX_SNIPPET - 1)}…` : text;
}

/**
 * Parse qmd's JSON output. Unparseable output (not JSON, not an array, or entries without
 * a file) is a `parse` {@link QmdError}: the caller falls back to the built-in index.
 */
export function parseQmdResults(stdout: string, resolve: PathResolver, opts: { explain?: boolean; mode: 'search' | 'vsearch' | 'query' }): SearchResult[] {
  const text = stdout.trim();
  // Some versions print notices before the JSON array; the array starts on its own line.
  const at = text.startsWith('[') ? 0 : text.search(/\n\[/) + 1;
  let raw: unknown;
  try {
    raw = JSON.parse(text.slice(at));
  } catch {
    throw new QmdError('parse', `qmd printed output that is not JSON: ${JSON.stringify(text.slice(0, 120))}`);
  }
  if (!Array.isArray(raw)) throw new QmdError('parse', 'qmd printed JSON that is not a result list');
  const out: SearchResult[] = [];
  for (const item of raw as RawHit[]) {
    if (!item || typeof item !== 'object' || typeof item.file !== 'string') {
      throw new QmdError('parse', `qmd printed a result without a file: ${JSON.stringify(item).slice(0, 120)}`);
    }
    const ref = parseQmdFile(item.file);
    const where = ref ? resolve(ref.collection, ref.handle) : null;
    // A hit outside Cairn's collections (should not happen in a private home) is dropped.
    if (!where) continue;
    const line = typeof item.line === 'number' ? item.line : undefined;
    const snippetRaw = typeof item.snippet === 'string' ? item.snippet : typeof item.body === 'string' ? item.body : '';
    const { startLine, endLine, text: snip } = parseSnippet(snippetRaw, line);
    const score = typeof item.score === 'number' && Number.isFinite(item.score) ? item.score : 0;
    const result: SearchResult = {
      path: where.path,
      startLine,
      endLine,
      score,
      snippet: clip(snip),
      source: where.source,
      citation: `${where.path}#L${startLine}-L${endLine}`,
    };
    if (opts.explain) {
      // QMD reports one score; put it where it came from so the breakdown stays honest.
      result.explain = {
        vector: opts.mode === 'vsearch' ? score : null,
        text: opts.mode === 'search' ? score : null,
        merged: score,
        decay: 1,
        mmrRank: null,
      };
    }
    out.push(result);
  }
  return out;
}
