import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app/build-app.ts'
import { createContext, type AppContext } from '../../src/app/context.ts'
import { loadConfig } from '../../src/config/index.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { signedPath } from '../../src/signing/index.ts'
import { adminOf, TEST_MASTER_KEY, type Caller } from '../support/app.ts'
import { databaseBackends, openTestDatabase, type TestDatabase } from '../support/backends.ts'

// The signed GET's lean lane (src/http/lean-lane/) against the full pipeline: one context, two apps over
// real sockets (the lane sits in the server, in front of the router, which `inject` bypasses), one with
// the lane and one built with `leanLane: false`. Each case is played in two fresh credit windows, the
// first on the lane's app, the second on the other, each after the same warm-up requests on the app it
// measures; the answers must be the same, status, headers in order (but Date) and body.
const START = Date.UTC(2026, 10, 22, 10, 0, 0)
const FAR = Math.floor(Date.UTC(2031, 0, 1) / 1000)

interface Answer { status: number, headers: string[], body: string }

/** One request over a new connection: the status, the raw headers in order (Date left out) and the body. */
async function send (base: string, method: string, url: string, requestId: string): Promise<Answer> {
  return await new Promise((resolve, reject) => {
    const req = httpRequest(base + url, { method, agent: false, headers: { 'x-request-id': requestId } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => {
        const headers: string[] = []
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i]?.toLowerCase() !== 'date') headers.push(`${res.rawHeaders[i] as string}: ${res.rawHeaders[i + 1] as string}`)
        }
        resolve({ status: res.statusCode ?? 0, headers, body })
      })
    })
    req.on('error', reject)
    req.end()
  })
}

interface Case {
  name: string
  method?: 'GET' | 'HEAD'
  /** The method of the warm-up requests, when not the measured one's. */
  warmMethod?: 'GET' | 'HEAD'
  /** The URL, given the window's start (seconds) for the cases whose `expires` moves with it. */
  url: (windowStart: number) => string
  /** Requests of the URL on the measured app before the measured one (default 2: the second verification is remembered). */
  warmups?: number
  /** Seconds into the window of the measured request (default 5; the warm-ups are at 5). */
  at?: number
  /** Whether the lane answers it (else it leaves it to the full pipeline). */
  lane: boolean
  status: number
}

for (const backend of databaseBackends()) {
  describe(`the lean lane answers as the full pipeline does, on ${backend.name}`, { skip: backend.skip }, () => {
    const clock = new ManualClock(START)
    let dataDir: string
    let database: TestDatabase
    let ctx: AppContext
    let leanApp: FastifyInstance
    let fullApp: FastifyInstance
    let leanBase: string
    let fullBase: string
    let admin: Caller
    let other: Caller
    let thrifty: Caller
    let playerId: string
    let thriftyPlayerId: string
    let deletedId: string
    let noReader: Caller
    let minute = 0

    const signed = (as: Caller, method: string, path: string, expires = FAR, params?: Record<string, string>): string =>
      signedPath({ apiKey: as.apiKey, secret: as.secret, method, path, expires, params })
    const listen = async (app: FastifyInstance): Promise<string> => {
      await app.listen({ host: '127.0.0.1', port: 0 })
      return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    }

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'reelhouse-lean-'))
      const config = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: 'silent' })
      database = await openTestDatabase(backend.name)
      ctx = await createContext(config, { database, clock })
      leanApp = await buildApp(ctx, { logger: false })
      fullApp = await buildApp(ctx, { logger: false, leanLane: false })
      leanBase = await listen(leanApp)
      fullBase = await listen(fullApp)
      admin = adminOf(await ctx.services.accounts.create('Lean account'))
      other = adminOf(await ctx.services.accounts.create('Other account'))
      thrifty = adminOf(await ctx.services.accounts.create('Thrifty account'))
      await ctx.db.updateTable('accounts').set({ credits_per_minute: 2 }).where('id', '=', thrifty.accountId).execute()
      const user = await ctx.services.users.createIn({ id: admin.accountId, code: admin.accountCode }, { name: 'analyst', role: 'analytics_only' })
      noReader = { ...admin, apiKey: user.api_key, secret: user.secret, userId: user.id }
      const create = async (as: Caller, name: string): Promise<string> => {
        const created = await ctx.services.players.create({ accountId: as.accountId, accountCode: as.accountCode, userId: as.userId, role: 'administrator' }, { name })
        return created.id
      }
      playerId = await create(admin, 'Lean player')
      thriftyPlayerId = await create(thrifty, 'Thrifty player')
      // Cached (and answered by the lane), then deleted through the API.
      deletedId = await create(admin, 'Deleted player')
      const url = signed(admin, 'GET', `/v2/players/${deletedId}`)
      for (let i = 0; i < 3; i++) assert.equal((await send(leanBase, 'GET', url, 'setup')).status, 200)
      assert.ok((leanApp.leanLane?.answered ?? 0) >= 1, 'the lane answered the cached player before its deletion')
      const removed = await send(fullBase, 'DELETE', signed(admin, 'DELETE', `/v2/players/${deletedId}`), 'setup')
      assert.equal(removed.status, 200)
    })

    after(async () => {
      await leanApp.close()
      await fullApp.close()
      await ctx.close()
      await database.close()
      rmSync(dataDir, { recursive: true, force: true })
    })

    const player = (): string => `/v2/players/${playerId}`
    const cases: Case[] = [
      { name: 'a first sight (not yet verified twice)', url: () => signed(admin, 'GET', player(), FAR - 1), warmups: 0, lane: false, status: 200 },
      { name: 'a URL verified and a row cached before', url: () => signed(admin, 'GET', player()), lane: true, status: 200 },
      { name: 'HEAD, signed as HEAD', method: 'HEAD', url: () => signed(admin, 'HEAD', player()), lane: true, status: 200 },
      { name: 'HEAD with the signature of the GET', method: 'HEAD', url: () => signed(admin, 'GET', player(), FAR - 2), lane: true, status: 200 },
      { name: 'a GET of a URL verified as HEAD (signed for HEAD)', warmMethod: 'HEAD', url: () => signed(admin, 'HEAD', player(), FAR - 3), lane: false, status: 401 },
      { name: 'an expired URL, verified while it was valid', url: (start) => signed(admin, 'GET', player(), start + 8), at: 15, lane: false, status: 401 },
      { name: 'a wrong signature', url: () => signed({ ...admin, secret: 'not-the-secret' }, 'GET', player()), lane: false, status: 401 },
      { name: 'a role that may not read players', url: () => signed(noReader, 'GET', player()), lane: false, status: 403 },
      { name: 'a missing player', url: () => signed(admin, 'GET', '/v2/players/0123456789abcdef0123456789abcdef'), lane: false, status: 404 },
      { name: 'a player deleted after the lane served it', url: () => signed(admin, 'GET', `/v2/players/${deletedId}`), lane: false, status: 404 },
      { name: 'another account\'s player', url: () => signed(other, 'GET', player()), lane: false, status: 404 },
      { name: 'query parameters beyond the signing ones', url: () => signed(admin, 'GET', player(), FAR, { include: 'metadata' }), lane: false, status: 200 },
      { name: 'a JSONP callback (the main service refuses it)', url: () => signed(admin, 'GET', player(), FAR, { callback: 'show' }), lane: false, status: 400 },
      { name: 'a trailing slash', url: () => signed(admin, 'GET', `${player()}/`), lane: false, status: 200 },
      { name: 'credits exhausted', url: () => signed(thrifty, 'GET', `/v2/players/${thriftyPlayerId}`), lane: false, status: 429 }
    ]

    /** The case on `app`, in a window of its own; returns the answer and whether the lane answered it. */
    async function play (c: Case, base: string, name: string): Promise<{ answer: Answer, laned: boolean }> {
      minute += 1
      const start = START + minute * 60_000
      clock.set(start + 5_000)
      const method = c.method ?? 'GET'
      const url = c.url(Math.floor(start / 1000))
      for (let i = 0; i < (c.warmups ?? 2); i++) await send(base, c.warmMethod ?? method, url, `warm-${name}`)
      clock.set(start + (c.at ?? 5) * 1000)
      const before = leanApp.leanLane?.answered ?? 0
      const answer = await send(base, method, url, `parity-${c.name.length}`)
      return { answer, laned: (leanApp.leanLane?.answered ?? 0) > before }
    }

    for (const c of cases) {
      it(`${c.name}: ${c.status}, ${c.lane ? 'from the lane' : 'left to the full pipeline'}, the same answer`, async () => {
        const lean = await play(c, leanBase, 'lean')
        const full = await play(c, fullBase, 'full')
        assert.equal(lean.laned, c.lane)
        assert.equal(full.laned, false)
        assert.equal(lean.answer.status, c.status, lean.answer.body)
        assert.deepEqual(lean.answer, full.answer)
      })
    }

    it('is off with LEAN_LANE=false, behind a TLS-terminating proxy, and on the cached variant', async () => {
      assert.equal(fullApp.leanLane, undefined)
      for (const env of [{ LEAN_LANE: 'false' }, { TRUST_PROXY: '1' }, { READ_CACHE_BYTES: '0' }]) {
        const config = loadConfig({ REELHOUSE_DATA_DIR: dataDir, REELHOUSE_MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: 'silent', ...env })
        const app = await buildApp({ ...ctx, config }, { logger: false })
        assert.equal(app.leanLane, undefined, JSON.stringify(env))
        await app.close()
      }
      const cdn = await buildApp(ctx, { variant: 'cdn', logger: false })
      assert.equal(cdn.leanLane, undefined)
      await cdn.close()
    })
  })
}
