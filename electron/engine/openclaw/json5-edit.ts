/**
 * A minimal, comment-keeping edit of a JSON5 config file (OpenClaw's openclaw.json): set the
 * value at a key path, leaving every other byte of the file — comments, key order, quoting,
 * trailing commas — as it was. Only the value being set is written anew (as JSON, indented
 * like its surroundings); missing objects on the way are created. OpenClaw's own
 * `openclaw config set/patch` strips a file's comments, and no comment-keeping JSON5 editor
 * is installed, hence this small scanner: it knows JSON5's strings, comments and brackets,
 * nothing more, and the caller re-parses the result with `json5` to check it.
 */

/** One property of an object literal: where its key and value are in the text. */
interface Prop {
  key: string;
  /** Index of the first character of the key. */
  keyStart: number;
  valueStart: number;
  /** Index just past the value's last character. */
  valueEnd: number;
}

/** An object literal's properties and where its closing brace is. */
interface ObjectSpan {
  open: number;
  close: number;
  props: Prop[];
}

const IDENT = /[A-Za-z0-9_$\u0080-\uffff]/;

/** Index of the first character at or after `i` that is neither whitespace nor a comment. */
function skipSpace(text: string, i: number): number {
  for (;;) {
    while (i < text.length && /\s/.test(text[i] ?? '')) i++;
    if (text.startsWith('//', i)) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl + 1;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new Error(`unterminated comment at offset ${i}`);
      i = end + 2;
    } else return i;
  }
}

/** Index just past the string literal that starts at `i`. */
function skipString(text: string, i: number): number {
  const quote = text[i];
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === quote) return j + 1;
  }
  throw new Error(`unterminated string at offset ${i}`);
}

/** Index just past the value that starts at `i` (object, array, string, number, literal). */
function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"' || c === "'") return skipString(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    for (let j = i; j < text.length; ) {
      const d = text[j];
      if (d === '"' || d === "'") j = skipString(text, j);
      else if (text.startsWith('//', j) || text.startsWith('/*', j)) j = skipSpace(text, j);
      else {
        if (d === '{' || d === '[') depth++;
        else if (d === '}' || d === ']') depth--;
        j++;
        if (depth === 0) return j;
      }
    }
    throw new Error(`unclosed ${c} at offset ${i}`);
  }
  let j = i;
  while (j < text.length && !/[\s,}\]/]/.test(text[j] ?? '')) j++;
  if (j === i) throw new Error(`a value was expected at offset ${i}`);
  return j;
}

/** The properties of the object literal whose `{` is at `open`. */
function readObject(text: string, open: number): ObjectSpan {
  const props: Prop[] = [];
  let i = skipSpace(text, open + 1);
  while (text[i] !== '}') {
    if (i >= text.length) throw new Error(`unclosed { at offset ${open}`);
    const keyStart = i;
    let key: string;
    if (text[i] === '"' || text[i] === "'") {
      const end = skipString(text, i);
      key = JSON.parse(`"${text.slice(i + 1, end - 1).replace(/\\'/g, "'").replace(/(?<!\\)"/g, '\\"')}"`) as string;
      i = end;
    } else {
      while (i < text.length && IDENT.test(text[i] ?? '')) i++;
      key = text.slice(keyStart, i);
      if (!key) throw new Error(`a key was expected at offset ${keyStart}`);
    }
    i = skipSpace(text, i);
    if (text[i] !== ':') throw new Error(`":" was expected after key "${key}" at offset ${i}`);
    const valueStart = skipSpace(text, i + 1);
    const valueEnd = skipValue(text, valueStart);
    props.push({ key, keyStart, valueStart, valueEnd });
    i = skipSpace(text, valueEnd);
    if (text[i] === ',') i = skipSpace(text, i + 1);
    else if (text[i] !== '}') throw new Error(`"," or "}" was expected at offset ${i}`);
  }
  return { open, close: i, props };
}

/** The indentation of the line holding `index`. */
function lineIndent(text: string, index: number): string {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

/** `value` as indented JSON whose first line continues the current line at `indent`. */
function render(value: unknown, indent: string, unit: string): string {
  return JSON.stringify(value, null, unit).replace(/\n/g, `\n${indent}`);
}

/** The object `{ [path[0]]: { …: value } }` for a path that does not exist yet. */
function nest(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((v, k) => ({ [k]: v }), value);
}

/** `text` with a new property `key: value` added at the end of the object `obj`. */
function insertProp(text: string, obj: ObjectSpan, key: string, value: unknown, unit: string): string {
  const last = obj.props[obj.props.length - 1];
  const indent = last ? lineIndent(text, last.keyStart) : `${lineIndent(text, obj.open)}${unit}`;
  const prop = `${JSON.stringify(key)}: ${render(value, indent, unit)}`;
  if (!last) {
    const closeIndent = lineIndent(text, obj.close);
    return `${text.slice(0, obj.open + 1)}\n${indent}${prop}\n${closeIndent}${text.slice(obj.close)}`;
  }
  // After the last value (and its comma, if the file has trailing commas).
  const after = skipSpace(text, last.valueEnd);
  const hasComma = text[after] === ',';
  const at = hasComma ? after + 1 : last.valueEnd;
  return `${text.slice(0, at)}${hasComma ? '' : ','}\n${indent}${prop}${hasComma ? ',' : ''}${text.slice(at)}`;
}

/**
 * `text` with the value at `path` set to `value` (JSON-serializable). Every object on the
 * path that exists is edited in place; the first missing one is added with the rest nested
 * inside. Throws when the text is not a JSON5 object or a value on the path is not an object.
 */
export function setJson5Path(text: string, path: readonly string[], value: unknown): string {
  if (path.length === 0) throw new Error('setJson5Path needs a key path');
  const rootOpen = skipSpace(text, 0);
  if (text[rootOpen] !== '{') throw new Error('the file is not a JSON5 object');
  const first = readObject(text, rootOpen).props[0];
  const unit = first ? lineIndent(text, first.keyStart).slice(lineIndent(text, rootOpen).length) || '  ' : '  ';
  let obj = readObject(text, rootOpen);
  for (let depth = 0; depth < path.length; depth++) {
    const key = path[depth] as string;
    const prop = obj.props.find((p) => p.key === key);
    if (!prop) return insertProp(text, obj, key, nest(path.slice(depth + 1), value), unit);
    if (depth === path.length - 1) {
      return `${text.slice(0, prop.valueStart)}${render(value, lineIndent(text, prop.keyStart), unit)}${text.slice(prop.valueEnd)}`;
    }
    if (text[prop.valueStart] !== '{') throw new Error(`${path.slice(0, depth + 1).join('.')} is not an object`);
    obj = readObject(text, prop.valueStart);
  }
  throw new Error('unreachable');
}

/**
 * `text` without the property at `path` (its line, and the comma that separated it, go with
 * it); `text` unchanged when the property is not there. Comments elsewhere are kept.
 */
export function deleteJson5Path(text: string, path: readonly string[]): string {
  if (path.length === 0) throw new Error('deleteJson5Path needs a key path');
  const rootOpen = skipSpace(text, 0);
  if (text[rootOpen] !== '{') throw new Error('the file is not a JSON5 object');
  let obj = readObject(text, rootOpen);
  for (let depth = 0; depth < path.length - 1; depth++) {
    const prop = obj.props.find((p) => p.key === path[depth]);
    if (!prop || text[prop.valueStart] !== '{') return text;
    obj = readObject(text, prop.valueStart);
  }
  const index = obj.props.findIndex((p) => p.key === path[path.length - 1]);
  const prop = obj.props[index];
  if (!prop) return text;
  // From the start of the key's line (when only indentation precedes it) …
  const lineStart = text.lastIndexOf('\n', prop.keyStart - 1) + 1;
  const start = /^[ \t]*$/.test(text.slice(lineStart, prop.keyStart)) ? lineStart : prop.keyStart;
  // … past the value, its comma and the rest of its line.
  let end = prop.valueEnd;
  while (text[end] === ' ' || text[end] === '\t') end++;
  const hadComma = text[end] === ',';
  if (hadComma) end++;
  const rest = /^[ \t]*(\/\/[^\n]*)?\r?\n/.exec(text.slice(end));
  if (rest && start === lineStart) end += rest[0].length;
  let out = `${text.slice(0, start)}${text.slice(end)}`;
  const prev = obj.props[index - 1];
  if (!hadComma && prev) {
    // The last property went: the comma after the one before it must go too (plain JSON).
    const at = skipSpace(out, prev.valueEnd);
    if (out[at] === ',') out = `${out.slice(0, at)}${out.slice(at + 1)}`;
  }
  if (obj.props.length === 1) {
    // The object is now empty: close it on one line.
    const open = obj.open;
    const close = out.indexOf('}', open);
    if (/^\s*$/.test(out.slice(open + 1, close))) out = `${out.slice(0, open + 1)}${out.slice(close)}`;
  }
  return out;
}
