#!/usr/bin/env node
// Runs every test/**/*.test.ts through node:test with tsx, so the runner's own summary is printed.
// Node 20's `--test` does not expand globs, so the file list is collected here. Arguments filter the
// list by substring; an argument naming an existing .ts file outside it runs that file as given.
// After the run it prints what was skipped and why (scripts/skip-summary-reporter.mjs): node:test's
// summary does not count skipped suites.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'

function collect (dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) return collect(full)
    return name.endsWith('.test.ts') ? [full] : []
  })
}

const args = process.argv.slice(2)
const given = args.filter((arg) => arg.endsWith('.ts') && existsSync(arg) && statSync(arg).isFile())
const filters = args.filter((arg) => !given.includes(arg))
const collected = given.length > 0 && filters.length === 0 ? [] : collect('test').filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)))
const files = [...new Set([...given, ...collected])].sort()
if (files.length === 0) {
  console.error('no test files matched')
  process.exit(1)
}
for (const name of ['TEST_DATABASE_URL', 'TEST_REDIS_URL', 'TEST_AMQP_URL', 'TEST_RABBITMQ_MANAGEMENT_URL']) {
  if (!process.env[name]) console.log(`notice: ${name} is not set; the tests that need it are skipped`)
}
const reporter = process.env.TEST_REPORTER ?? 'spec'
const scratch = mkdtempSync(join(tmpdir(), 'reelhouse-test-run-'))
const skipped = join(scratch, 'skipped.txt')
try {
  const result = spawnSync(process.execPath, [
    '--import', 'tsx', '--test',
    `--test-reporter=${reporter}`, '--test-reporter-destination=stdout',
    `--test-reporter=${join(import.meta.dirname, 'skip-summary-reporter.mjs')}`, `--test-reporter-destination=${skipped}`,
    '--test-concurrency=2', ...files
  ], { stdio: 'inherit' })
  if (existsSync(skipped)) process.stdout.write(readFileSync(skipped, 'utf8'))
  process.exitCode = result.status ?? 1
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
