import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { costOf, costTableMarkdown, hasTextPredicate, COST_TABLE, DEFAULT_COST, type QueryLike } from '../../src/credits/index.ts'

describe('cost table', () => {
  const table: Array<[method: string, path: string, query: QueryLike, cost: number]> = [
    ['GET', '/v2/labels', {}, 1],
    ['POST', '/v2/players', {}, 1],
    ['GET', '/v2/remaining_credits_and_reset_time', {}, 0],
    ['GET', '/v2/remaining_credits_and_reset_time?api_key=a&expires=1', {}, 0],
    ['GET', '/v2/remaining_credits_and_reset_time/', {}, 0],
    ['GET', '/v2/analytics/reports', {}, 5],
    ['GET', '/v2/analytics/reports/account/performance/total/2026-11-01...2026-11-22', {}, 5],
    ['GET', '/v2/analytics/reports/*', {}, 5],
    ['GET', '/v2/analytics/reportsx', {}, 1],
    ['POST', '/v2/analytics/events', {}, 1],
    ['GET', '/v2/assets', {}, 1],
    ['GET', '/v2/assets', { where: "status='live'" }, 1],
    ['GET', '/v2/assets', { where: "name='trailer'" }, 2],
    ['get', '/v2/assets', { where: "name='trailer'" }, 2],
    ['HEAD', '/v2/assets', { where: "description='x'" }, 2],
    ['GET', '/v2/assets', { where: "labels INCLUDES 'Sports'" }, 2],
    ['GET', '/v2/assets', { where: "labels includes 'Sports'" }, 2],
    ['GET', '/v2/assets', { where: "status='live' AND NAME='x'" }, 2],
    ['GET', '/v2/assets', { where: "metadata.name='x'" }, 1],
    ['GET', '/v2/assets', { where: "status='name'" }, 1],
    ['GET', '/v2/assets', { where: "status='it''s name'" }, 1],
    ['GET', '/v2/assets', { where: "status='a\\' name' AND duration>5" }, 1],
    ['GET', '/v2/assets', { where: "asset_type IN ('name','description')" }, 1],
    ['GET', '/v2/assets', { where: '' }, 1],
    ['GET', '/v2/assets', { where: ["name='a'", "name='b'"] }, 2],
    ['GET', '/v2/assets', new URLSearchParams("where=name='x'"), 2],
    ['GET', '/v2/assets', [['limit', '5'], ['where', "description='x'"]], 2],
    ['GET', '/v2/assets/', { where: "name='x'" }, 2],
    ['POST', '/v2/assets', { where: "name='x'" }, 1],
    ['GET', '/v2/labels/abc/assets', { where: "name='x'" }, 1]
  ]
  for (const [method, path, query, cost] of table) {
    it(`charges ${cost} for ${method} ${path} ${JSON.stringify(query instanceof URLSearchParams ? query.toString() : query)}`, () => {
      assert.equal(costOf(method, path, query), cost)
    })
  }

  it('defaults the query to none', () => {
    assert.equal(costOf('GET', '/v2/assets'), DEFAULT_COST)
  })

  it('spots text predicates only outside quoted values', () => {
    assert.equal(hasTextPredicate(undefined), false)
    assert.equal(hasTextPredicate("description = 'x'"), true)
    assert.equal(hasTextPredicate("external_id='name'"), false)
  })

  it('renders every rule and the default into the docs table', () => {
    const markdown = costTableMarkdown()
    assert.match(markdown, /^\| Request \| Credits \| Why \|\n\|---\|---\|---\|\n/)
    for (const rule of COST_TABLE) assert.ok(markdown.includes(`| ${rule.request} | ${rule.cost} |`))
    assert.ok(markdown.includes(`| every other request | ${DEFAULT_COST} |`))
  })
})
