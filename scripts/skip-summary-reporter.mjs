// A node:test reporter that counts what was skipped, by reason. node:test's own summary counts
// skipped tests only: a `describe(…, { skip: reason })` suite (how a whole backend's suite steps aside
// when its TEST_* URL is unset) shows as "skipped 0", and the tests inside it are never counted at all.
// Chained after `spec` by scripts/run-tests.mjs, which prints this block after spec's summary.

/** Reads node:test events; yields one text block at the end: skipped suites and tests per reason. */
export default async function * skipSummary (source) {
  const suites = new Map()
  const tests = new Map()
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue
    const { skip, details } = event.data
    if (skip === undefined || skip === false) continue
    const reason = skip === true ? '(no reason given)' : String(skip)
    const counts = details?.type === 'suite' ? suites : tests
    counts.set(reason, (counts.get(reason) ?? 0) + 1)
  }
  yield formatSummary(suites, tests)
}

function total (counts) {
  let sum = 0
  for (const n of counts.values()) sum += n
  return sum
}

function plural (n, word) {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

function formatSummary (suites, tests) {
  const lines = [`skipped: ${plural(total(suites), 'suite')}, ${plural(total(tests), 'test')}`]
  const rows = [...[...suites].map(([reason, n]) => [reason, plural(n, 'suite')]), ...[...tests].map(([reason, n]) => [reason, plural(n, 'test')])]
  rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  for (const [reason, count] of rows) lines.push(`  ${reason} → ${count}`)
  if (suites.size > 0) lines.push('  (the tests inside a skipped suite are not run, so they are not counted one by one)')
  return lines.join('\n') + '\n'
}
