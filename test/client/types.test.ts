import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, it } from 'node:test'

const run = promisify(execFile)
const TYPES = join(import.meta.dirname, 'types')
const TSC = join(import.meta.dirname, '..', '..', 'node_modules', 'typescript', 'bin', 'tsc')

describe('the client\'s types', () => {
  it('accept typed calls and keep every @ts-expect-error line an error (tsc on test/client/types/typed-calls.ts)', async () => {
    const expected = readFileSync(join(TYPES, 'typed-calls.ts'), 'utf8').match(/@ts-expect-error/g)?.length ?? 0
    assert.ok(expected >= 15, `only ${expected} @ts-expect-error lines: the file lost its checks`)
    const result = await run(process.execPath, [TSC, '-p', join(TYPES, 'tsconfig.json')]).catch((error: { stdout: string, code: number }) => error)
    assert.equal('code' in result ? result.code : 0, 0, `tsc found errors:\n${result.stdout}`)
  })
})
