import { EVENT_KIND as K } from '../../../src/analytics/model.ts'
import { EVENT_COLUMNS, QUALITY_COLUMNS } from '../../../src/analytics/store/store.ts'

// Synthetic events for the analytics benchmarks and the tests that check them at a smaller size, as
// players send them: viewing sessions in October 2026 (30 days). A session is one viewer on one asset,
// player and domain, from one country and device; it emits player_load, display, play_requested (most
// do), video_start with its startup time, then a heartbeat every 10 s watched, time_watched every
// minute, the playthroughs it reaches, stalls and rendition changes, a replay now and then; some end
// before the start or on a fatal error. 300 assets (1 to 30 minutes long), 12 players, 40 domains,
// viewers, countries and devices all skewed. Every value is an integer hash of the session's number
// computed inside the engine, so DuckDB and PostgreSQL hold the very same rows, and 10M events load in
// one statement.

const M = 2147483647 // 2^31 − 1, a prime
const ASSETS = 300
const DOMAINS = 40
const PLAYERS = 12
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'JP', 'BR', 'IN', 'CA', 'AU', 'ES', 'IT', 'MX', 'NL', 'SE', 'PL', 'KR', 'TR', 'AR', 'ZA', 'NG', 'EG', 'ID', 'PH', 'VN', 'TH', 'MY', 'SG', 'NZ', 'IE', 'PT', 'BE', 'CH', 'AT', 'DK', 'NO', 'FI', 'CZ', 'HU', 'RO', 'GR', 'IL', 'SA', 'AE', 'CL', 'CO', 'PE', 'UA', 'RU', 'CN', 'unknown']
/** Devices as the collector names them, with their share of viewers in percent. */
const DEVICES: Array<[number, string, string, string]> = [
  [18, 'desktop', 'windows', 'chrome'], [6, 'desktop', 'windows', 'edge'], [3, 'desktop', 'windows', 'firefox'],
  [6, 'desktop', 'mac', 'safari'], [5, 'desktop', 'mac', 'chrome'], [1, 'desktop', 'linux', 'firefox'], [1, 'desktop', 'chromeos', 'chrome'],
  [18, 'mobile', 'ios', 'safari'], [17, 'mobile', 'android', 'chrome'], [4, 'mobile', 'android', 'samsung'],
  [5, 'tablet', 'ios', 'safari'], [2, 'tablet', 'android', 'chrome'],
  [5, 'settop', 'roku', 'unknown.browser'], [3, 'settop', 'tizen', 'samsung'], [2, 'settop', 'webos', 'unknown.browser'],
  [4, 'unknown.devicetype', 'unknown.os', 'unknown.browser']
]
/** The rendition ladder: height and bit rate. */
const LADDER = [[360, 800_000], [540, 1_600_000], [720, 3_000_000], [1080, 6_000_000]]
/** Sessions are about 36 events on average and never fewer than 2: this many always cover the events asked for. */
const sessionsFor = (events: number): number => Math.ceil(events / 12) + 64

/** The generating INSERT: every column an integer hash of the session's number and the event's place in it. */
export function generateSql (dialect: 'duckdb' | 'postgres', events: number, accountId = 'acc-bench'): string {
  const duck = dialect === 'duckdb'
  const div = (a: string, b: number | string): string => duck ? `((${a}) // (${b}))` : `((${a}) / (${b}))`
  const text = (items: string[]): string => duck ? `[${items.map((s) => `'${s}'`).join(', ')}]` : `(ARRAY[${items.map((s) => `'${s}'`).join(', ')}])`
  // An affine map then a square, mod M: a bare affine map of one counter leaves the hashes of two salts in lockstep.
  const hash = (x: string, salt: number): string => {
    const y = `((${x}) * ${1_000_003 + salt * 7_919_011} + ${salt * 104_729}) % ${M}`
    return `((${y}) * (${y}) % ${M})`
  }
  /** A skewed pick in [0, n): the product of two uniform ones, so that low numbers are the popular ones. */
  const skewed = (x: string, salt: number, n: number): string => div(`(${hash(x, salt)} % ${n}) * (${hash(x, salt + 1)} % ${n})`, n)
  const pick = (share: string, column: 1 | 2 | 3): string => {
    let bound = 0
    return `CASE ${DEVICES.map((d) => { bound += d[0]; return `WHEN ${share} < ${bound} THEN '${d[column]}'` }).join(' ')} END`
  }
  const ladder = (level: string, i: 0 | 1): string => `CASE ${level} ${LADDER.map((l, n) => `WHEN ${n} THEN ${l[i]}`).join(' ')} END`
  const series = duck ? `range(${sessionsFor(events)}) t(s)` : `generate_series(CAST(0 AS bigint), ${sessionsFor(events) - 1}) AS t(s)`
  const explode = duck ? 'unnest(range(n_events))' : 'generate_series(CAST(0 AS bigint), n_events - 1)'
  const time = (ms: string): string => duck ? `TIMESTAMP '2026-10-01' + to_milliseconds(${ms})` : `TIMESTAMP '2026-10-01' + (${ms}) * INTERVAL '1 millisecond'`

  // Sessions: 20 % leave at the display, 4 % between the play request and the start, 2 % on a fatal error, the rest play.
  const drawn = `SELECT s, ${hash('s', 1)} % 100 AS fate, ${skewed('s', 2, ASSETS)} AS asset, ${skewed('s', 4, DOMAINS)} AS dom,
      ${hash('s', 6)} % 10 AS embed, ${div(`(${hash('s', 7)} % 2000) * (${hash('s', 8)} % 2000)`, 4)} AS viewer,
      (${hash('s', 9)} % 30) * 86400000 + ${div(`${hash('s', 10)} % 86400000 + ${hash('s', 11)} % 86400000`, 2)} AS t0,
      1000 + ${hash('s', 12)} % 15000 AS delay,
      250 + ${div(`(${hash('s', 13)} % 1000) * (${hash('s', 14)} % 1000)`, 120)} + CASE WHEN ${hash('s', 15)} % 50 = 0 THEN 15000 ELSE 0 END AS startup,
      ${hash('s', 16)} % 100 AS completes, (${hash('s', 17)} % 1000) * (${hash('s', 18)} % 1000) AS fraction,
      ${hash('s', 19)} % 100 AS stalls, ${hash('s', 20)} % 3 AS switches, ${hash('s', 21)} % 4 AS rung, ${hash('s', 22)} % 4800 AS stall_ms,
      ${hash('s', 23)} % 5 AS replays
    FROM ${series}`
  // Its shape: the header (load, display, play request, start or error), W heartbeats (one per 10 s watched, of a
  // D-tick asset), ⌈W/6⌉ time_watched, Q playthroughs, R stalls (start and end), G rendition changes, a replay.
  const shaped = `SELECT *, h + w + tw + q + 2 * r + g + rp AS n_events FROM (
      SELECT *, CASE WHEN fate < 20 THEN 2 WHEN fate < 24 THEN 3 ELSE 4 END AS h,
        ${div('w + 5', 6)} AS tw, LEAST(4, ${div('4 * w', 'd')}) AS q,
        CASE WHEN w = 0 THEN 0 ELSE LEAST(w, CASE WHEN stalls < 70 THEN 0 WHEN stalls < 90 THEN 1 ELSE 2 END) END AS r,
        CASE WHEN w = 0 THEN 0 ELSE 1 + switches END AS g, CASE WHEN w > 0 AND w = d AND replays = 0 THEN 1 ELSE 0 END AS rp
      FROM (
        SELECT *, CASE WHEN fate < 26 THEN 0 WHEN completes < 15 THEN d ELSE 1 + ${div('(d - 1) * fraction', 1_000_000)} END AS w
        FROM (SELECT *, 6 + (asset * 7919 + 13) % 175 AS d, ${skewed('viewer', 24, COUNTRIES.length)} AS place, ${hash('viewer', 26)} % 100 AS share
          FROM (${drawn}) drawn) lengths
      ) watched
    ) counted`
  // The first event of each session, counted over all sessions before it: the events are cut at exactly `events`.
  const placed = `SELECT * FROM (SELECT *, SUM(n_events) OVER (ORDER BY s ROWS UNBOUNDED PRECEDING) - n_events AS earlier FROM (${shaped}) shaped) placed WHERE earlier < ${events}`
  const kind = `CASE WHEN p < h THEN CASE p WHEN 0 THEN ${K.player_load} WHEN 1 THEN ${K.display} WHEN 2 THEN ${K.play_requested}
      ELSE CASE WHEN w > 0 THEN ${K.video_start} ELSE ${K.error_fatal} END END
    WHEN p < h + w THEN ${K.playhead_update} WHEN p < h + w + tw THEN ${K.time_watched}
    WHEN p < h + w + tw + q THEN ${K.playthrough_25} + p - (h + w + tw)
    WHEN p < h + w + tw + q + 2 * r THEN ${K.rebuffer_start} + (p - (h + w + tw + q)) % 2
    WHEN p < h + w + tw + q + 2 * r + g THEN ${K.rendition_change} ELSE ${K.replay} END`
  // j: the event's number among those of its kind in the session.
  const nth = `CASE WHEN p < h THEN 0 WHEN p < h + w THEN p - h WHEN p < h + w + tw THEN p - (h + w) WHEN p < h + w + tw + q THEN p - (h + w + tw)
    WHEN p < h + w + tw + q + 2 * r THEN ${div('p - (h + w + tw + q)', 2)} ELSE p - (h + w + tw + q + 2 * r) END`
  const rows = `SELECT *, ${kind} AS kind, ${nth} AS j, t0 + delay AS pr, t0 + delay + startup AS vs
    FROM (SELECT *, ${explode} AS p FROM (${placed}) placed) exploded WHERE earlier + p < ${events}`
  // Stall m of R is in the tick at (m + 1)/(R + 1) of the time watched, 3 s into it.
  const stallAt = `vs + ${div('(j + 1) * w', 'r + 1')} * 10000 + 3000`
  const stallMs = '200 + (stall_ms + j * 1931) % 4800'
  const ms = `CASE kind WHEN ${K.player_load} THEN t0 WHEN ${K.display} THEN t0 + 300 WHEN ${K.play_requested} THEN pr
    WHEN ${K.video_start} THEN vs WHEN ${K.error_fatal} THEN pr + 1200 + startup % 4000
    WHEN ${K.playhead_update} THEN vs + (j + 1) * 10000 WHEN ${K.time_watched} THEN vs + LEAST(6 * j + 6, w) * 10000 + 5
    WHEN ${K.rebuffer_start} THEN ${stallAt} WHEN ${K.rebuffer_end} THEN ${stallAt} + ${stallMs}
    WHEN ${K.rendition_change} THEN vs + ${div('j * w', 'g')} * 10000 + 700 + j * 100
    WHEN ${K.replay} THEN vs + w * 10000 + 4000
    ELSE vs + ${div(`(kind - ${K.playthrough_25} + 1) * d * 10000`, 4)} + 10 END`
  const value = `CASE kind WHEN ${K.video_start} THEN startup WHEN ${K.time_watched} THEN (LEAST(6 * j + 6, w) - 6 * j) * 10000
    WHEN ${K.playhead_update} THEN (j + 1) * 10000 WHEN ${K.rebuffer_end} THEN ${stallMs}
    WHEN ${K.rendition_change} THEN ${ladder('(rung + j) % 4', 1)} END`
  const value2 = `CASE kind WHEN ${K.playhead_update} THEN d * 10000 WHEN ${K.rendition_change} THEN ${ladder('(rung + j) % 4', 0)} END`
  const fatal = `kind = ${K.error_fatal}`
  // PostgreSQL would spend longer compiling this statement's expressions (JIT) than running them; the
  // two statements run as one implicit transaction, so the setting ends with it.
  return `${duck ? '' : 'SET LOCAL jit = off;\n'}INSERT INTO analytics_events (${[...EVENT_COLUMNS, ...QUALITY_COLUMNS].join(', ')})
    SELECT '${accountId}', 'asset-' || asset, 'player-' || CASE WHEN embed < 8 THEN dom % ${PLAYERS} ELSE (dom * 7 + embed) % ${PLAYERS} END,
      's-' || s, 'd:' || viewer, kind, ${time(ms)}, ${value},
      ${text(COUNTRIES)}[1 + place],
      ${pick('share', 1)}, ${pick('share', 2)}, ${pick('share', 3)},
      'site' || dom || '.com', ${value2},
      CASE WHEN ${fatal} THEN CASE WHEN s % 3 = 0 THEN 'hls.mediaError' ELSE 'hls.networkError' END END,
      CASE WHEN ${fatal} THEN CASE WHEN s % 3 = 0 THEN 'buffer append failed' ELSE 'manifest load timed out' END END
    FROM (${rows}) e`
}
