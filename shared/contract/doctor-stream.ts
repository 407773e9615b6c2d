/** The doctor's checks as they complete (Status page): one event per check of a `doctor.run` call. */
import { ev } from './define';
import type { DoctorCheck } from './app';

export interface DoctorCheckEvent {
  /** The opId of the `doctor.run` call the check belongs to. */
  opId: string | undefined;
  check: DoctorCheck;
}

export const doctorStreamEvents = {
  /** One check of a `doctor.run` finished (checks run concurrently; the call's reply has them all, in order). */
  'doctor.check': ev<DoctorCheckEvent>(),
};
