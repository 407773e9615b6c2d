/**
 * A clock for driving the real OpenClaw through simulated days (make-openclaw-dreaming-fixture.mjs).
 * Loaded into OpenClaw's own Node with NODE_OPTIONS=--import: when FAKE_CLOCK_START (an ISO
 * time) is set, `Date.now()` and `new Date()` start there and run on at real speed. OpenClaw
 * takes every timestamp from `Date` (memory-core's resolveMemoryCoreNowMs falls back to
 * Date.now()) and has no clock setting of its own, so this is how a past day is lived.
 */
/** The environment variable that sets the start of the simulated clock (an ISO time). */
export const CLOCK_ENV = 'FAKE_CLOCK_START';

const start = process.env[CLOCK_ENV] ? Date.parse(process.env[CLOCK_ENV]) : NaN;
if (Number.isFinite(start)) {
  const RealDate = Date;
  const offset = start - RealDate.now();
  const now = () => RealDate.now() + offset;
  class FakeDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(now());
      else super(...args);
    }
    static now() {
      return now();
    }
  }
  globalThis.Date = FakeDate;
}
