import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import { costTableMarkdown } from '../../src/credits/index.ts'

const DOC = 'docs/credits-and-cache.md'
const PATH = new URL(`../../${DOC}`, import.meta.url)

describe(DOC, () => {
  it('shows the cost table exactly as the code defines it', () => {
    const text = readFileSync(PATH, 'utf8')
    const table = /<!-- cost-table:start -->\n([\s\S]*?)\n<!-- cost-table:end -->/.exec(text)?.[1]
    assert.ok(table !== undefined, `${DOC} has no cost-table markers`)
    assert.equal(table, costTableMarkdown(), `paste the output of costTableMarkdown() between the cost-table markers of ${DOC}`)
  })
})
