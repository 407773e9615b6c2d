/**
 * "Connect Cairn to OpenClaw" beside a found OpenClaw folder: shown only when the engine can
 * connect (`openclaw.connection` answers, and not `unavailable`); the click first shows, in
 * plain words, what connecting adds and that nothing of OpenClaw is switched off, with the
 * exact change to openclaw.json (a dry run's diff), and connects only after "Connect".
 */
import { OpenClawConnectionView } from '../../components/OpenClawConnection';

export function ConnectOpenClaw({ stateDir }: { stateDir: string }) {
  return <OpenClawConnectionView stateDir={stateDir} compact />;
}
