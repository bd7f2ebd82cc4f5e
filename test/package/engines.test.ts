import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import semver from 'semver'

const ROOT = join(import.meta.dirname, '..', '..')
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string, engines?: unknown }> }

describe('the Node versions package.json promises', () => {
  it('are admitted by every package in the lock file, so `npm ci` prints no EBADENGINE warning', () => {
    const lowest = semver.minVersion(manifest.engines.node)
    assert.ok(lowest !== null, `engines.node "${manifest.engines.node}" admits no version`)
    const refused = Object.entries(lock.packages).flatMap(([path, pkg]) => {
      const range = (pkg.engines as { node?: unknown } | undefined)?.node
      if (path === '' || typeof range !== 'string') return []
      return semver.satisfies(lowest, range) ? [] : [`${path.replace(/^.*node_modules\//, '')}@${pkg.version ?? '?'} wants node ${range}`]
    })
    assert.deepEqual(refused, [], `package.json says node ${manifest.engines.node} (from ${lowest.version}), but:`)
  })
})
