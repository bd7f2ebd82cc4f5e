import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join, relative } from 'node:path'
import { describe, it } from 'node:test'
import { buildTestApp } from '../support/app.ts'

// The repository stands on its own: its docs, comments, scripts and the served API reference explain
// the rules they follow instead of pointing at notes outside the repository, and tell what the code
// does rather than how the work on it was divided.

const ROOT = join(import.meta.dirname, '..', '..')
const SCANNED = ['README.md', 'package.json', 'redocly.yaml', 'knip.json', '.dependency-cruiser.cjs', '.ci', 'docs', 'src', 'scripts', 'bin', 'bench', 'test']
const TEXT = new Set(['.md', '.ts', '.mjs', '.js', '.cjs', '.json', '.yaml', '.yml', '.sql', '.css', ''])
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', 'data', '.scratch', 'fixtures'])

/** What a reader outside the project cannot follow, with why. */
const FORBIDDEN: Array<[RegExp, string]> = [
  [/product\.md/, 'a spec outside the repository'],
  [/interface-spec/, 'a spec outside the repository'],
  [/backlot-api(\.md)?/, 'research notes outside the repository'],
  [/\.\.\/shared/, 'a folder outside the repository'],
  [/media-stack\.md|infra-measurements/, 'research notes outside the repository'],
  [/(?<!RFC \d{3,5} )§\s?\d/, 'a section number of a document the repository does not hold'],
  [/\bthe upload issue\b|\bnot ours\b|\bprevious session\b|\(issue \d+\)/, 'internal wording about how the work was divided']
]

function files (path: string): string[] {
  const full = join(ROOT, path)
  if (statSync(full).isDirectory()) {
    return readdirSync(full).filter((name) => !SKIPPED_DIRECTORIES.has(name)).flatMap((name) => files(join(path, name)))
  }
  return TEXT.has(extname(path)) ? [path] : []
}

function findings (text: string, where: string): string[] {
  return text.split('\n').flatMap((line, i) => FORBIDDEN
    .filter(([pattern]) => pattern.test(line))
    .map(([, why]) => `${where}:${i + 1}: ${why}: ${line.trim().slice(0, 160)}`))
}

describe('the repository stands on its own', () => {
  it('names no document outside it and no internal history, in docs, comments, scripts or tests', () => {
    const self = relative(ROOT, import.meta.filename)
    const scanned = SCANNED.flatMap(files).filter((path) => path !== self)
    assert.ok(scanned.length > 300, `only ${scanned.length} files scanned`)
    const found = scanned.flatMap((path) => findings(readFileSync(join(ROOT, path), 'utf8'), path))
    assert.deepEqual(found, [])
  })

  it('serves an API reference that does the same', async () => {
    const t = await buildTestApp('sqlite')
    try {
      const document = (await t.app.inject('/openapi.json')).body
      assert.deepEqual(findings(document.replace(/\\n/g, '\n'), '/openapi.json'), [])
      assert.deepEqual(findings((await t.app.inject('/docs/errors')).body, '/docs/errors'), [])
    } finally {
      await t.close()
    }
  })
})
