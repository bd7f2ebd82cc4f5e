import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, it } from 'node:test'

const ROOT = join(import.meta.dirname, '..', '..')
const FIXTURES = join('test', 'scripts', 'fixtures')

/** `npm test`'s runner on one fixture file, as a user runs it. */
function runTests (fixture: string): { status: number | null, stdout: string } {
  // NODE_TEST_CONTEXT would make the inner run report to this one instead of printing its own output.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env
  const result = spawnSync(process.execPath, ['scripts/run-tests.mjs', join(FIXTURES, fixture)], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 })
  return { status: result.status, stdout: result.stdout }
}

describe('the test runner (scripts/run-tests.mjs)', () => {
  it('counts skipped suites and tests with their reasons after the spec output, and exits 0 when all ran tests pass', () => {
    const { status, stdout } = runTests('skipped-suites.fixture.ts')
    assert.equal(status, 0, stdout)
    assert.match(stdout, /✔ adds/)
    assert.match(stdout, /﹣ a suite that needs a queue .*# TEST_FIXTURE_QUEUE_URL is not set/)
    const block = stdout.slice(stdout.indexOf('skipped: '))
    assert.ok(stdout.indexOf('skipped: ') > stdout.indexOf('ℹ duration_ms'), 'the block follows the spec summary')
    assert.match(block, /^skipped: 3 suites, 1 test$/m)
    assert.match(block, /^ {2}TEST_FIXTURE_DB_URL is not set → 2 suites$/m)
    assert.match(block, /^ {2}TEST_FIXTURE_QUEUE_URL is not set → 1 suite$/m)
    assert.match(block, /^ {2}needs a fixture tool → 1 test$/m)
  })

  it('keeps the exit code of a failing run and still prints what was skipped', () => {
    const { status, stdout } = runTests('failing.fixture.ts')
    assert.equal(status, 1, stdout)
    assert.match(stdout, /✖ fails on purpose/)
    assert.match(stdout, /^skipped: 1 suite, 0 tests$/m)
    assert.match(stdout, /^ {2}TEST_FIXTURE_DB_URL is not set → 1 suite$/m)
  })
})
