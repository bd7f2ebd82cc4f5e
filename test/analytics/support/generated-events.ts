import { EVENT_COLUMNS, QUALITY_COLUMNS } from '../../../src/analytics/store/store.ts'

// Synthetic events for the analytics benchmarks and the tests that check them at a smaller size: in
// October 2026 (30 days), 10k skewed assets, 1M viewers, 50 countries, every event kind a player sends.
// The rows are generated inside the engine from integer hashes of the row number, so DuckDB and
// PostgreSQL hold the very same events.

/** The generating INSERT: every column an integer hash of the row number, the same on both engines. */
export function generateSql (dialect: 'duckdb' | 'postgres', events: number, accountId = 'acc-bench'): string {
  const h = (k: number): string => `((i * ${[1, 7919, 104729, 1299709, 15485863, 32452843, 49979687, 67867967, 86028121, 104395301, 122949823, 141650939, 160481183, 179424673][k]} + ${k * 7}) % 1000003)`
  const div = (a: string, b: number): string => dialect === 'duckdb' ? `(${a} // ${b})` : `(${a} / ${b})`
  const list = (items: string[]): string => dialect === 'duckdb' ? `[${items.map((s) => `'${s}'`).join(', ')}]` : `(ARRAY[${items.map((s) => `'${s}'`).join(', ')}])`
  const countries = ['US', 'GB', 'DE', 'FR', 'JP', 'BR', 'IN', 'CA', 'AU', 'ES', 'IT', 'MX', 'NL', 'SE', 'PL', 'KR', 'TR', 'AR', 'ZA', 'NG', 'EG', 'ID', 'PH', 'VN', 'TH', 'MY', 'SG', 'NZ', 'IE', 'PT', 'BE', 'CH', 'AT', 'DK', 'NO', 'FI', 'CZ', 'HU', 'RO', 'GR', 'IL', 'SA', 'AE', 'CL', 'CO', 'PE', 'UA', 'RU', 'CN', 'unknown']
  const ms = `(${h(4)} * 2592 + i % 1000)` // within 30 days
  const time = dialect === 'duckdb' ? `TIMESTAMP '2026-10-01' + to_milliseconds(${ms})` : `TIMESTAMP '2026-10-01' + ${ms} * INTERVAL '1 millisecond'`
  // Kinds (EVENT_KIND) by i % 20: 4 displays, 4 plays requested, 2 starts (with a startup time), 4 time_watched,
  // a playthrough, a replay, a stall's start and end (its duration), a rendition change (bit rate, height), and
  // a playhead update (position, duration) or, one time in ten, a fatal error (code, message).
  const kind = `CASE i % 20 WHEN 0 THEN 1 WHEN 1 THEN 1 WHEN 2 THEN 1 WHEN 3 THEN 1 WHEN 4 THEN 2 WHEN 5 THEN 2 WHEN 6 THEN 2 WHEN 7 THEN 2
    WHEN 8 THEN 3 WHEN 9 THEN 3 WHEN 10 THEN 9 WHEN 11 THEN 9 WHEN 12 THEN 9 WHEN 13 THEN 9 WHEN 14 THEN 5 + ${h(5)} % 4 WHEN 15 THEN 4
    WHEN 16 THEN 14 WHEN 17 THEN 15 WHEN 18 THEN 16 ELSE CASE WHEN ${h(5)} % 10 = 0 THEN 17 ELSE 11 END END`
  const value = `CASE i % 20 WHEN 8 THEN 100 + ${h(6)} % 8000 WHEN 9 THEN 100 + ${h(6)} % 8000 WHEN 10 THEN 1000 + ${h(6)} % 60000
    WHEN 11 THEN 1000 + ${h(6)} % 60000 WHEN 12 THEN 1000 + ${h(6)} % 60000 WHEN 13 THEN 1000 + ${h(6)} % 60000
    WHEN 17 THEN 50 + ${h(6)} % 4000 WHEN 18 THEN 400000 * (1 + ${h(6)} % 8) WHEN 19 THEN ${h(6)} % 600000 END`
  const value2 = `CASE i % 20 WHEN 18 THEN 240 * (1 + ${h(6)} % 4) WHEN 19 THEN 600000 END`
  const fatal = `i % 20 = 19 AND ${h(5)} % 10 = 0`
  const series = dialect === 'duckdb' ? `range(${events}) t(i)` : `generate_series(CAST(0 AS bigint), ${events - 1}) AS t(i)`
  return `INSERT INTO analytics_events (${[...EVENT_COLUMNS, ...QUALITY_COLUMNS].join(', ')})
    SELECT '${accountId}', 'asset-' || ${div(`(${h(1)} % 10000) * (${h(2)} % 10000)`, 10000)}, 'player-' || (${h(13)} % 20),
      's-' || ${div('i', 20)}, 'd:' || ${h(3)}, ${kind}, ${time},
      ${value},
      ${list(countries)}[1 + ${div(`(${h(7)} % 50) * (${h(8)} % 50)`, 50)}],
      ${list(['desktop', 'mobile', 'tablet', 'settop', 'unknown.devicetype'])}[1 + ${h(9)} % 5],
      ${list(['windows', 'mac', 'ios', 'android', 'linux', 'roku'])}[1 + ${h(10)} % 6],
      ${list(['chrome', 'safari', 'firefox', 'edge', 'samsung', 'unknown.browser'])}[1 + ${h(11)} % 6],
      'site' || (${h(12)} % 50) || '.com',
      ${value2}, CASE WHEN ${fatal} THEN 'hls.networkError' END, CASE WHEN ${fatal} THEN 'manifest load timed out' END
    FROM ${series}`
}
