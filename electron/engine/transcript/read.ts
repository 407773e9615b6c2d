/** Reading a transcript file from disk. */
import fs from 'node:fs';
import { parseTranscript } from './parse';
import type { Transcript } from './types';

/** Read and parse a transcript (synchronous: one read, one parse). */
export function readTranscript(file: string): Transcript {
  const buf = fs.readFileSync(file);
  return parseTranscript(file, buf.toString('utf8'), buf.length);
}
