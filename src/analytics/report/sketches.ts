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
export const HISTOGRAM_BUCKETS = 241

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

/** The same in TypeScript, for tests and the docs' examples. */
export function bucketOf (value: number): number {
  if (value < 1000) return Math.floor(value / 10)
  if (value < 10000) return 100 + Math.floor((value - 1000) / 100)
  if (value < 60000) return 190 + Math.floor((value - 10000) / 1000)
  return 240
}
export function bucketMidpoint (bucket: number): number {
  if (bucket < 100) return bucket * 10 + 5
  if (bucket < 190) return 1000 + (bucket - 100) * 100 + 50
  if (bucket < 240) return 10000 + (bucket - 190) * 1000 + 500
  return 60000
}
