#!/usr/bin/env node
// Runs every test/**/*.test.ts through node:test with tsx, so the runner's own summary is printed.
// Node 20's `--test` does not expand globs, so the file list is collected here.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { spawnSync } from 'node:child_process'

function collect (dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) return collect(full)
    return name.endsWith('.test.ts') ? [full] : []
  })
}

const filters = process.argv.slice(2)
const files = collect('test').filter((f) => filters.length === 0 || filters.some((p) => f.includes(p))).sort()
if (files.length === 0) {
  console.error('no test files matched')
  process.exit(1)
}
for (const name of ['TEST_DATABASE_URL', 'TEST_REDIS_URL', 'TEST_AMQP_URL', 'TEST_RABBITMQ_MANAGEMENT_URL']) {
  if (!process.env[name]) console.log(`notice: ${name} is not set; the tests that need it are skipped`)
}
const reporter = process.env.TEST_REPORTER ?? 'spec'
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-reporter=${reporter}`, '--test-concurrency=2', ...files], { stdio: 'inherit' })
process.exit(result.status ?? 1)
