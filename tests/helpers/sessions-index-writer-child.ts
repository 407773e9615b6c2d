/**
 * A child process that adds `count` sessions `<tag>-<i>` to the sessions.json given on the
 * command line, one update at a time, then prints "done". Two of these at once must keep
 * every key (the read-modify-write is under the file's lock).
 */
import { updateSessionEntry } from '../../electron/engine/transcript/sessions-index';

const [file, tag, count] = process.argv.slice(2) as [string, string, string];
for (let i = 0; i < Number(count); i++) await updateSessionEntry(file, `${tag}-${i}`, { updatedAt: i });
process.stdout.write('done\n');
