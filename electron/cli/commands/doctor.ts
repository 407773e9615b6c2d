/** `cairn doctor`: every check with ok/warn/fail and a fix-it hint; `--json` for machines. */
import type { Command } from 'commander';
import type { DoctorCheck } from '../../../shared/contract';
import type { CliRuntime, GlobalOptions } from '../runtime';

const mark = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' } as const;

export function formatChecks(checks: DoctorCheck[]): string {
  const lines: string[] = [];
  for (const c of checks) {
    const [first = '', ...rest] = c.detail.split('\n');
    lines.push(`[${mark[c.status]}] ${c.label}: ${first}`);
    for (const r of rest) lines.push(`       ${r}`);
    if (c.hint && c.status !== 'ok') lines.push(`       → ${c.hint}`);
  }
  return lines.join('\n');
}

export function register(program: Command, rt: CliRuntime): void {
  program
    .command('doctor')
    .description('check the state dir, config, SQLite/FTS5, sqlite-vec, node-llama-cpp, embedder and LLM')
    .option('--json', 'print JSON')
    .action(async (opts: GlobalOptions) => {
      const o = { ...program.opts<GlobalOptions>(), ...opts };
      const engine = await rt.engine(o);
      const { runDoctor } = await import('../../engine/app/doctor');
      const checks = await runDoctor(engine.ctx);
      if (o.json) rt.json({ stateDir: engine.ctx.stateDir, checks });
      else rt.stdout(formatChecks(checks));
      if (checks.some((c) => c.status === 'fail')) process.exitCode = 1;
    });
}
