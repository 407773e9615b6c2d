/**
 * The fault points of the crash test's child (tests/helpers/crash-child.ts), in their own
 * module: the test imports them without running the child. `<point>:<n>` asks the child to
 * SIGKILL itself the n-th time it reaches the point.
 */
export const FAULT_POINTS = ['append-torn', 'checkpoint-copy', 'checkpoint-done', 'entry-torn', 'entry-unsynced'] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];
