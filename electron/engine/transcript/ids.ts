/** Entry ids: 8 lowercase hex digits, unique within a transcript. */
import crypto from 'node:crypto';

/** A fresh 8-hex id not in `taken`. */
export function newEntryId(taken?: { has(id: string): boolean }): string {
  for (;;) {
    const id = crypto.randomBytes(4).toString('hex');
    if (!taken?.has(id)) return id;
  }
}

export function isoNow(now: Date = new Date()): string {
  return now.toISOString();
}
