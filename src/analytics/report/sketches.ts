/**
 * Fixed-bucket histograms for percentiles (docs/analytics.md, "Error bounds"). A value falls into one
 * bucket by integer arithmetic only, so DuckDB and PostgreSQL, and any pre-aggregated copy of the
 * counts, put it in the same bucket; a percentile is the midpoint of the bucket where the cumulative
 * count first reaches its share.
 *
 *   0 ≤ v < 1 s       buckets 0–99 of 10 ms   (error ≤ 5 ms)
 *   1 s ≤ v < 10 s    buckets 100–189 of 100 ms (error ≤ 50 ms)
 *   10 s ≤ v < 60 s   buckets 190–239 of 1 s  (error ≤ 500 ms)
 *   v ≥ 60 s          bucket 240, reported as 60000
 */
/** The bucket of `value` (an integer column), with `div` the dialect's integer division. */
export function bucketSql (value: string, div: (a: string, b: number) => string): string {
  return `CASE WHEN ${value} < 1000 THEN ${div(value, 10)} WHEN ${value} < 10000 THEN 100 + ${div(`${value} - 1000`, 100)}` +
    ` WHEN ${value} < 60000 THEN 190 + ${div(`${value} - 10000`, 1000)} ELSE 240 END`
}

/** The value a bucket stands for: its midpoint (60000 for the last, open one). */
export function bucketMidpointSql (bucket: string): string {
  return `CASE WHEN ${bucket} < 100 THEN ${bucket} * 10 + 5 WHEN ${bucket} < 190 THEN 1000 + (${bucket} - 100) * 100 + 50` +
    ` WHEN ${bucket} < 240 THEN 10000 + (${bucket} - 190) * 1000 + 500 ELSE 60000 END`
}

/**
 * HyperLogLog for distinct viewers, 4096 registers (standard error 1.04 / √4096 ≈ 1.6 %; docs/analytics.md,
 * "Error bounds"). A viewer id's MD5 (the same in both engines) gives its register (first 3 hex digits) and
 * its rank: 1 + the leading zero bits of the next 10 hex digits, at most 41. With ranks capped at 41, the
 * sum of 2^-rank over 4096 registers is exact in a double, so the estimate is the same whatever order the
 * registers are summed in: from raw events or from rollups.
 */
export const HLL_REGISTERS = 4096

/** The MD5 of a viewer id (a text column) as hex: computed once per event, read by the register and the rank. */
export const hllHashSql = (id: string): string => `md5(${id})`

/** The register of a viewer whose hash is `hash`, with `hexInt` the dialect's cast of 3 hex digits to an integer. */
export function hllRegisterSql (hash: string, hexInt: (hex: string) => string): string {
  return hexInt(`substr(${hash}, 1, 3)`)
}

/** The rank: leading zero hex digits × 4, plus the leading zero bits of the first non-zero digit, plus 1. */
export function hllRankSql (hash: string): string {
  const bits = `substr(${hash}, 4, 10)`
  const zeros = `(10 - length(ltrim(${bits}, '0')))`
  const digit = `substr(ltrim(${bits}, '0'), 1, 1)`
  return `(4 * ${zeros} + CASE WHEN ${zeros} = 10 THEN 0 WHEN ${digit} >= '8' THEN 0 WHEN ${digit} >= '4' THEN 1 WHEN ${digit} >= '2' THEN 2 ELSE 3 END + 1)`
}

/**
 * The estimate over one group's registers (`rank` the register maxima, one row per register set):
 * linear counting while it is below 2.5 × 4096 and a register is empty, else the raw HyperLogLog estimate.
 */
export function hllEstimateSql (rank: string): string {
  const m = HLL_REGISTERS
  const set = 'COUNT(*)'
  const z = `(SUM(power(CAST(2 AS DOUBLE PRECISION), -${rank})) + (${m} - ${set}))`
  const raw = `(CAST(${0.7213 / (1 + 1.079 / m) * m * m} AS DOUBLE PRECISION) / ${z})`
  return `CAST(ROUND(CASE WHEN ${raw} <= ${2.5 * m} AND ${set} < ${m} THEN ${m} * ln(CAST(${m} AS DOUBLE PRECISION) / (${m} - ${set})) ELSE ${raw} END) AS BIGINT)`
}

/** The two places the engines spell sketch arithmetic differently. */
export const SKETCH_DIALECT = {
  duckdb: {
    intDiv: (a: string, b: number) => `(${a}) // ${b}`,
    hexInt: (hex: string) => `CAST(('0x' || ${hex}) AS INTEGER)`
  },
  postgres: {
    intDiv: (a: string, b: number) => `(${a}) / ${b}`,
    hexInt: (hex: string) => `CAST(CAST(('x' || lpad(${hex}, 8, '0')) AS bit(32)) AS integer)`
  }
} as const
