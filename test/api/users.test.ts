import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { USER_ROLES } from '../../src/auth/roles.ts'
import { databaseBackends } from '../support/backends.ts'
import { buildTestApp, snapshot, type TestApp } from '../support/app.ts'

for (const backend of databaseBackends()) {
  describe(`/v2/users on ${backend.name}`, { skip: backend.skip }, () => {
    let t: TestApp
    before(async () => { t = await buildTestApp(backend.name) })
    after(async () => { await t.close() })

    it('creates a user, shows the secret once, and the new key signs requests', async () => {
      const created = await t.signed('POST', '/v2/users', { body: { name: 'Ana', role: 'manager' } })
      assert.equal(created.statusCode, 200)
      const user = created.json()
      assert.match(user.id, /^[0-9a-f]{32}$/)
      assert.match(user.secret, /^[A-Za-z0-9]{40}$/)
      assert.ok(user.api_key.startsWith(`${t.admin.accountCode}.`))
      assert.equal(user.role, 'manager')
      assert.match(user.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
      const fetched = await t.signed('GET', `/v2/users/${user.id}`)
      assert.equal(fetched.json().secret, undefined)
      const asNew = await t.signed('GET', '/v2/remaining_credits_and_reset_time', { as: { ...t.admin, apiKey: user.api_key, secret: user.secret, userId: user.id } })
      assert.notEqual(asNew.statusCode, 401)
    })

    it('rotates a secret: the old one stops working at once', async () => {
      const user = await t.userWithRole('administrator')
      assert.equal((await t.signed('GET', '/v2/users', { as: user })).statusCode, 200)
      const rotated = await t.signed('POST', `/v2/users/${user.userId}/secret`)
      assert.equal(rotated.statusCode, 200)
      const { secret } = rotated.json()
      assert.notEqual(secret, user.secret)
      assert.equal((await t.signed('GET', '/v2/users', { as: user })).statusCode, 401)
      assert.equal((await t.signed('GET', '/v2/users', { as: { ...user, secret } })).statusCode, 200)
    })

    it('patches a role and a name', async () => {
      const user = await t.userWithRole('read_only')
      const res = await t.signed('PATCH', `/v2/users/${user.userId}`, { body: { role: 'manager', name: 'Bo' } })
      assert.equal(res.statusCode, 200)
      assert.equal(res.json().role, 'manager')
      assert.equal(res.json().name, 'Bo')
    })

    it('keeps at least one administrator', async () => {
      const other = await t.otherAccount()
      const demote = await t.signed('PATCH', `/v2/users/${other.userId}`, { as: other, body: { role: 'manager' } })
      assert.equal(demote.statusCode, 409)
      assert.equal(demote.json().message, 'An account must keep at least one administrator.')
      const remove = await t.signed('DELETE', `/v2/users/${other.userId}`, { as: other })
      assert.equal(remove.statusCode, 409)
      const second = await t.userWithRole('administrator', other)
      assert.equal((await t.signed('DELETE', `/v2/users/${other.userId}`, { as: second })).statusCode, 200)
    })

    it('pages users with next_page, page_token last and no auth parameters', async () => {
      const other = await t.otherAccount()
      for (let i = 0; i < 4; i++) await t.userWithRole('read_only', other)
      const seen: string[] = []
      let path = '/v2/users?limit=2'
      for (let guard = 0; guard < 10; guard++) {
        const res = await t.signed('GET', path, { as: other })
        assert.equal(res.statusCode, 200, res.body)
        const page = res.json()
        seen.push(...page.items.map((u: { id: string }) => u.id))
        if (page.next_page === undefined) break
        assert.match(page.next_page, /^\/v2\/users\?limit=2&page_token=[A-Za-z0-9_.%-]+$/)
        path = page.next_page
      }
      assert.equal(seen.length, 5)
      assert.equal(new Set(seen).size, 5)
    })

    it('refuses a page token of another query or a forged one', async () => {
      const other = await t.otherAccount()
      for (let i = 0; i < 3; i++) await t.userWithRole('read_only', other)
      const first = (await t.signed('GET', '/v2/users?limit=1', { as: other })).json()
      const token = new URLSearchParams(first.next_page.split('?')[1]).get('page_token') as string
      const forged = token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))
      const bad = await t.signed('GET', `/v2/users?limit=1&page_token=${encodeURIComponent(forged)}`, { as: other })
      assert.equal(bad.statusCode, 400)
      assert.equal(bad.json().message, 'Parameter page_token is not a valid page token.')
      const otherQuery = await t.signed('GET', `/v2/users?limit=1&role=x&page_token=${encodeURIComponent(token)}`, { as: other })
      assert.equal(otherQuery.statusCode, 400)
      assert.equal(otherQuery.json().message, 'Parameter page_token belongs to a different query.')
      const synonym = await t.signed('GET', `/v2/users?limit=1&paging_token=${encodeURIComponent(token)}`, { as: other })
      assert.equal(synonym.statusCode, 200)
    })

    // Bad-input table: request → exact status and message, and nothing written.
    const rows: Array<{ name: string, method: string, path: () => string, body?: unknown, status: number, message: string }> = [
      { name: 'create without a name', method: 'POST', path: () => '/v2/users', body: { role: 'manager' }, status: 400, message: 'Field name is required.' },
      { name: 'create without a role', method: 'POST', path: () => '/v2/users', body: { name: 'x' }, status: 400, message: 'Field role is required.' },
      { name: 'create with an unknown role', method: 'POST', path: () => '/v2/users', body: { name: 'x', role: 'owner' }, status: 400, message: 'Field role must be one of administrator, manager, upload_only, analytics_only, read_only.' },
      { name: 'create with an unknown field', method: 'POST', path: () => '/v2/users', body: { name: 'x', role: 'manager', email: 'a@b' }, status: 400, message: 'Unknown fields: email.' },
      { name: 'create with a number as name', method: 'POST', path: () => '/v2/users', body: { name: 12, role: 'manager' }, status: 400, message: 'Field name must be a string.' },
      { name: 'create with an empty name', method: 'POST', path: () => '/v2/users', body: { name: '', role: 'manager' }, status: 400, message: 'Field name must not be empty.' },
      { name: 'create with an over-long name', method: 'POST', path: () => '/v2/users', body: { name: 'x'.repeat(256), role: 'manager' }, status: 400, message: 'Field name must be at most 255 characters long.' },
      { name: 'create with control characters', method: 'POST', path: () => '/v2/users', body: { name: 'a\u0007b', role: 'manager' }, status: 400, message: 'Field name must not contain control characters.' },
      { name: 'create with a JSON array', method: 'POST', path: () => '/v2/users', body: [], status: 400, message: 'Request body must be an object.' },
      { name: 'create with invalid JSON', method: 'POST', path: () => '/v2/users', body: '{"name":', status: 400, message: 'Request body is not valid JSON.' },
      { name: 'patch with an unknown role', method: 'PATCH', path: () => `/v2/users/${t.admin.userId}`, body: { role: 'root' }, status: 400, message: 'Field role must be one of administrator, manager, upload_only, analytics_only, read_only.' },
      { name: 'patch an unknown user', method: 'PATCH', path: () => '/v2/users/ffffffffffffffffffffffffffffffff', body: { name: 'x' }, status: 404, message: 'User ffffffffffffffffffffffffffffffff does not exist.' },
      { name: 'get a malformed id', method: 'GET', path: () => '/v2/users/not-an-id', status: 404, message: 'User not-an-id does not exist.' },
      { name: 'delete an unknown user', method: 'DELETE', path: () => '/v2/users/ffffffffffffffffffffffffffffffff', status: 404, message: 'User ffffffffffffffffffffffffffffffff does not exist.' },
      { name: 'rotate an unknown user', method: 'POST', path: () => '/v2/users/ffffffffffffffffffffffffffffffff/secret', status: 404, message: 'User ffffffffffffffffffffffffffffffff does not exist.' },
      { name: 'limit 0', method: 'GET', path: () => '/v2/users?limit=0', status: 400, message: 'Parameter limit must be an integer from 1 to 500.' },
      { name: 'limit 501', method: 'GET', path: () => '/v2/users?limit=501', status: 400, message: 'Parameter limit must be an integer from 1 to 500.' },
      { name: 'limit not a number', method: 'GET', path: () => '/v2/users?limit=ten', status: 400, message: 'Parameter limit must be an integer from 1 to 500.' },
      { name: 'limit with a fraction', method: 'GET', path: () => '/v2/users?limit=1.5', status: 400, message: 'Parameter limit must be an integer from 1 to 500.' },
      { name: 'a garbage page token', method: 'GET', path: () => '/v2/users?page_token=abc', status: 400, message: 'Parameter page_token is not a valid page token.' }
    ]
    for (const row of rows) {
      it(`answers ${row.status} to ${row.name}`, async () => {
        const beforeRows = await snapshot(t.ctx, ['users'])
        const res = await t.signed(row.method, row.path(), { body: typeof row.body === 'string' ? row.body : row.body === undefined ? undefined : JSON.stringify(row.body) })
        assert.equal(res.statusCode, row.status, res.body)
        assert.equal(res.json().message, row.message)
        assert.equal(await snapshot(t.ctx, ['users']), beforeRows)
      })
    }

    describe('role matrix', () => {
      for (const role of USER_ROLES) {
        const allowed = role === 'administrator'
        it(`${allowed ? 'allows' : 'refuses'} ${role} on every /v2/users route`, async () => {
          const caller = await t.userWithRole(role)
          const victim = await t.userWithRole('read_only')
          const beforeRows = allowed ? '' : await snapshot(t.ctx, ['users'])
          const calls: Array<[string, string, unknown?]> = [
            ['GET', '/v2/users'],
            ['GET', `/v2/users/${victim.userId}`],
            ['PATCH', `/v2/users/${victim.userId}`, { name: 'renamed' }],
            ['POST', `/v2/users/${victim.userId}/secret`],
            ['POST', '/v2/users', { name: 'new', role: 'read_only' }],
            ['DELETE', `/v2/users/${victim.userId}`]
          ]
          for (const [method, path, body] of calls) {
            const res = await t.signed(method, path, { as: caller, body: body as object | undefined })
            if (allowed) {
              assert.equal(res.statusCode, 200, `${method} ${path}: ${res.body}`)
            } else {
              assert.equal(res.statusCode, 403, `${method} ${path}`)
              const action = method === 'GET' ? 'read' : 'write'
              assert.equal(res.json().message, `Role ${role} may not ${action} users.`)
            }
          }
          if (!allowed) assert.equal(await snapshot(t.ctx, ['users']), beforeRows)
        })
      }
    })

    it("answers 404 for another account's user, for every route, and changes nothing", async () => {
      const other = await t.otherAccount()
      const beforeRows = await snapshot(t.ctx, ['users'])
      for (const [method, path, body] of [
        ['GET', `/v2/users/${other.userId}`],
        ['PATCH', `/v2/users/${other.userId}`, { name: 'x' }],
        ['DELETE', `/v2/users/${other.userId}`],
        ['POST', `/v2/users/${other.userId}/secret`]
      ] as Array<[string, string, object?]>) {
        const res = await t.signed(method, path, { body })
        assert.equal(res.statusCode, 404, `${method} ${path}`)
      }
      assert.equal(await snapshot(t.ctx, ['users']), beforeRows)
      const list = (await t.signed('GET', '/v2/users?limit=500')).json()
      assert.ok(!list.items.some((u: { id: string }) => u.id === other.userId))
    })
  })
}
