/**
 * How a file's chunks are cut into write steps: each step is one short transaction (a big
 * file in an incremental sync) or, in a bulk rebuild, one synchronous stretch between yields
 * to the event loop. Steps are sized by rows written, not chunks, because with line vectors
 * a chunk is many rows.
 */

/** Chunks from which a file is too big to write in one transaction (incremental syncs). */
export const STEP_CHUNKS = 48;
/**
 * Rows per write step (a transaction, or in bulk mode a stretch between yields): a chunk
 * counts 1 plus its line vectors, each a row in two more tables. Without line vectors a step
 * is STEP_CHUNKS chunks; with them (~7 rows a chunk) ~7 chunks, not 48 chunks' ≈ 340 vector
 * rows in one synchronous piece (15–25 ms, several times that on a loaded machine).
 */
const STEP_ROWS = STEP_CHUNKS;

/**
 * `chunks` cut into consecutive write steps of at most `maxRows` rows (a chunk is 1 row plus
 * its line vectors; one chunk with its lines is never split, so a step has at least one).
 */
export function writeSteps<T extends { lineVectors?: readonly unknown[] | undefined }>(chunks: readonly T[], maxRows = STEP_ROWS): T[][] {
  const steps: T[][] = [];
  let step: T[] = [];
  let rows = 0;
  for (const c of chunks) {
    const w = 1 + (c.lineVectors?.length ?? 0);
    if (step.length > 0 && rows + w > maxRows) {
      steps.push(step);
      step = [];
      rows = 0;
    }
    step.push(c);
    rows += w;
  }
  if (step.length > 0) steps.push(step);
  return steps;
}
