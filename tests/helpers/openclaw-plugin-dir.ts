/**
 * A temp OpenClaw dir for the plugin tests (tests/helpers/openclaw-plugin-host.ts's ocDirIn in
 * a temp dir of this test, removed after it) and a temp Cairn data dir.
 */
import { hostileNote, ocDirIn } from './openclaw-plugin-host';
import { tmpDir } from './tmp';

/**
 * The fixture's OpenClaw dir with the note a line-based wire breaks on (hostileNote: U+2028,
 * U+2029, NUL, a lone surrogate, a 1 MB line) and `notes` under `workspace/memory/`, and a Cairn data dir.
 */
export function pluginOcDir(notes: Record<string, string> = {}): { stateDir: string; dataDir: string; memoryDir: string } {
  return { ...ocDirIn(tmpDir('cairn-ocplug-'), { ...hostileNote(), ...notes }), dataDir: tmpDir('cairn-data-') };
}
