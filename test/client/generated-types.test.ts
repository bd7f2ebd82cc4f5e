import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { GENERATED_DIR, renderClientTypes } from '../../scripts/client-types.ts'

describe('the client\'s generated types in packages/client/src/generated/', () => {
  it('are what the server\'s schemas give today (regenerate with npm run client:types)', async () => {
    const rendered = await renderClientTypes()
    assert.deepEqual(readdirSync(GENERATED_DIR).sort(), [...rendered.keys()].sort(), 'a generated file is missing or left over')
    for (const [name, text] of rendered) {
      assert.equal(readFileSync(join(GENERATED_DIR, name), 'utf8'), text, `packages/client/src/generated/${name} is out of date`)
    }
  })
})
