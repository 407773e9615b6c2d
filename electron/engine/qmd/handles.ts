/**
 * QMD names each indexed file by a "handle", not by its path: every run of characters that
 * is not a letter, digit or `$` becomes `-` (`my_notes.md` → `my-notes.md`, dots inside the
 * name too), `___` becomes a folder separator and emoji become hex code points (QMD's
 * `handelize` in store.ts). Search results say `qmd://<collection>/<handle>`, so to cite a
 * real workspace path we apply the same rule to the files we know and look the handle up.
 */

function emojiToHex(s: string): string {
  return s.replace(/(?:\p{So}\p{Mn}?|\p{Sk})+/gu, (run) =>
    [...run]
      .filter((c) => /\p{So}|\p{Sk}/u.test(c))
      .map((c) => c.codePointAt(0)!.toString(16))
      .join('-'),
  );
}

/** QMD's handle for a collection-relative path (forward slashes). */
export function qmdHandle(relPath: string): string {
  return relPath
    .replace(/___/g, '/')
    .split('/')
    .map((segment, i, all) => {
      const s = emojiToHex(segment);
      if (i === all.length - 1) {
        const ext = /(\.[a-z0-9]+)$/i.exec(s)?.[1] ?? '';
        const name = ext ? s.slice(0, -ext.length) : s;
        return name.replace(/[^\p{L}\p{N}$]+/gu, '-').replace(/^-+|-+$/g, '') + ext;
      }
      return s.replace(/[^\p{L}\p{N}$]+/gu, '-').replace(/^-+|-+$/g, '');
    })
    .filter(Boolean)
    .join('/');
}

/** A parsed `qmd://collection/handle?index=…` (or a plain `collection/handle`). */
export interface QmdFileRef {
  collection: string;
  handle: string;
}

/** Parse the `file` field of a qmd search result; null when it names no collection. */
export function parseQmdFile(file: string): QmdFileRef | null {
  let s = file.trim();
  if (s.startsWith('qmd://')) s = s.slice('qmd://'.length);
  s = s.replace(/[?#].*$/, '');
  const slash = s.indexOf('/');
  if (slash <= 0 || slash === s.length - 1) return null;
  let handle = s.slice(slash + 1);
  try {
    handle = decodeURIComponent(handle);
  } catch {
    // not URI-encoded
  }
  return { collection: s.slice(0, slash), handle };
}

/**
 * A lookup from handle to the real collection-relative path, built from the files we know
 * are in the collection. Exact handles win; a case-insensitive match covers QMD versions
 * that lower-case handles.
 */
export function handleLookup(relPaths: readonly string[]): (handle: string) => string | undefined {
  const exact = new Map<string, string>();
  const folded = new Map<string, string>();
  for (const p of relPaths) {
    const h = qmdHandle(p);
    if (!exact.has(h)) exact.set(h, p);
    if (!folded.has(h.toLowerCase())) folded.set(h.toLowerCase(), p);
  }
  return (handle) => exact.get(handle) ?? folded.get(handle.toLowerCase());
}
