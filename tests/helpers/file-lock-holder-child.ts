/**
 * A child process that takes Cairn's cross-process lock of the file given on the command line
 * (util/file-lock.ts), prints "held", keeps it until its stdin ends, then releases it and
 * prints "released". Killed while holding, it leaves the lock behind as a crashed writer does.
 */
import { withFileLock } from '../../electron/engine/util/file-lock';

const [file] = process.argv.slice(2) as [string];
await withFileLock(file, async () => {
  process.stdout.write('held\n');
  await new Promise<void>((resolve) => process.stdin.on('end', resolve).resume());
});
process.stdout.write('released\n');
