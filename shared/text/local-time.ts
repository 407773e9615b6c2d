/**
 * The one way Cairn writes a time for a person — the window (renderer sessions/format.ts
 * `when`), the CLI (`cairn sessions list`) and the engine's "today" for relative dates
 * (search/service.ts): the system's time zone, "YYYY-MM-DD HH:MM:SS", whatever the locale
 * (a German browser wrote "5.12.2026, 09:45:00"; a UTC string read as local was off by the
 * zone's offset — 13¾ hours in Chatham).
 */

/** `t` (ISO string or epoch ms) as local "YYYY-MM-DD HH:MM:SS"; undefined when it is no time. */
export function localDateTime(t: string | number | Date): string | undefined {
  const d = t instanceof Date ? t : new Date(t);
  if (Number.isNaN(d.getTime())) return undefined;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}
