// @ts-check
/**
 * The wire between Cairn's plugin inside OpenClaw (bridge-client.js) and Cairn's bridge
 * (electron/engine/openclaw/bridge.ts): the line framing both ends use.
 *
 * Framing: one JSON value per line, lines end at '\n' and nowhere else. Not readline: on the
 * Node OpenClaw runs (24), readline also ends a line at U+2028 and U+2029, which
 * `JSON.stringify` leaves as they are — a memory note holding one split its answer in two.
 * So the writer escapes them (`encodeLine`) and the reader splits on '\n' only
 * (`LineSplitter`): either fix alone keeps a line whole, both keep an older or newer other
 * end working. Lone surrogates and NUL are escaped by `JSON.stringify` itself.
 *
 * Plain JavaScript with no dependency: it is loaded by OpenClaw's Node from the plugin folder.
 */

const LINE_SEPARATORS = /[\u2028\u2029]/g;

/**
 * One message as a line: JSON with U+2028/U+2029 escaped, ended by '\n'.
 * @param {unknown} message
 */
export function encodeLine(message) {
  return `${JSON.stringify(message).replace(LINE_SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'))}\n`;
}

/**
 * Cuts a stream of decoded text into lines at '\n' only. Looks for the end of a line in each
 * new chunk only, so a 1 MB line arriving in 64 KiB chunks costs one pass, not one per chunk.
 */
export class LineSplitter {
  constructor() {
    /** @type {string[]} the unfinished line's pieces */
    this.parts = [];
  }

  /**
   * The lines `chunk` finishes (without their '\n'; a '\r' before it is kept, it is not ours).
   * @param {string} chunk
   * @returns {string[]}
   */
  push(chunk) {
    /** @type {string[]} */
    const lines = [];
    let from = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', from)) {
      this.parts.push(chunk.slice(from, nl));
      lines.push(this.parts.join(''));
      this.parts = [];
      from = nl + 1;
    }
    if (from < chunk.length) this.parts.push(chunk.slice(from));
    return lines;
  }

  /** What is left when the input ends (an unfinished last line), or null. */
  end() {
    const rest = this.parts.join('');
    this.parts = [];
    return rest ? rest : null;
  }
}

/**
 * The lines of a readable stream (decoded as UTF-8), ended at '\n' only.
 * @param {NodeJS.ReadableStream} stream
 * @returns {AsyncGenerator<string>}
 */
export async function* readLines(stream) {
  stream.setEncoding('utf8');
  const splitter = new LineSplitter();
  for await (const chunk of stream) yield* splitter.push(String(chunk));
  const rest = splitter.end();
  if (rest !== null) yield rest;
}
