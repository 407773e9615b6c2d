/**
 * English stop words: the one list the keyword query builder, the static word-vector
 * embedder and the renderer's highlighting share (they held three lists that
 * disagreed). Function words only: content words like "not" stay, because memory is full of
 * "do not use X"; a few query fillers ("please", "tell", "remember") are here because people
 * type them at a memory search and they match every note.
 */

/** Lowercase stop words. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then else so than that this these those there here ' +
    'i me my mine myself we us our ours ourselves you your yours yourself yourselves ' +
    'he him his himself she her hers herself it its itself they them their theirs themselves ' +
    'what which who whom whose when where why how ' +
    'am is are was were be been being have has had having do does did doing done ' +
    'will would shall should can could may might must ' +
    'of at by for with about against between into through during before after above below ' +
    'to from up down in out on off over under again further once ' +
    'all any both each few more most other some such only own same too very just ' +
    'as until while also s t d ll m re ve please tell know remember'
  ).split(/\s+/),
);

/** True when the lowercase token carries no meaning of its own. */
export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}
