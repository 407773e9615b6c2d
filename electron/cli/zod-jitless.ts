/**
 * Imported for its effect: zod parses without compiling code. By default zod v4 compiles a
 * fast parser per object schema (`new Function`) on its first parse — ~20–40 ms for the
 * config schema on a loaded 2-core machine, repaid only over thousands of parses. A CLI
 * command parses the config and a request or two and exits, so it runs zod "jitless" (same
 * results, interpreted). The Electron app and the engine in tests keep the default.
 */
import { z } from 'zod';

z.config({ jitless: true });
