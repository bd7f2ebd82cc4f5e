// The shape of every resource's bad-input table, the one loop that runs it, and the rows every paged
// list shares: each row is a request and the exact status and message it must get, with nothing written.
import assert from 'node:assert/strict'
import { it } from 'node:test'
import type { TestApp } from './app.ts'
import { snapshotTables } from './snapshot.ts'

/** One request and the exact answer it must get. A function is read when the row runs (ids made in `before`). */
export interface BadInputRow {
  name: string
  method: string
  path: () => string
  /** A string or bytes are sent as they are; anything else as JSON. */
  body?: unknown
  headers?: Record<string, string>
  status: number
  message: string | (() => string)
}

export const LIMIT_MESSAGE = 'Parameter limit must be an integer from 1 to 500.'
export const TOKEN_MESSAGE = 'Parameter page_token is not a valid page token.'

/** The rows every paged list answers alike: `limit` out of range or not an integer, a token that is no token. */
export function pagingRows (list: string | (() => string)): BadInputRow[] {
  const path = typeof list === 'string' ? () => list : list
  const name = typeof list === 'string' ? list : 'the list'
  const query = (q: string) => () => `${path()}?${q}`
  return [
    { name: `${name} with limit 0`, method: 'GET', path: query('limit=0'), status: 400, message: LIMIT_MESSAGE },
    { name: `${name} with limit 501`, method: 'GET', path: query('limit=501'), status: 400, message: LIMIT_MESSAGE },
    { name: `${name} with limit ten`, method: 'GET', path: query('limit=ten'), status: 400, message: LIMIT_MESSAGE },
    { name: `${name} with limit 2.5`, method: 'GET', path: query('limit=2.5'), status: 400, message: LIMIT_MESSAGE },
    { name: `${name} with a garbage page token`, method: 'GET', path: query('page_token=abc.def'), status: 400, message: TOKEN_MESSAGE }
  ]
}

/** One test per row: the row's status and message, and the given tables unchanged. */
export function itAnswersEachRow (app: () => TestApp, rows: BadInputRow[], tables: string[]): void {
  for (const row of rows) {
    it(`answers ${row.status} to ${row.name}, writing nothing`, async () => {
      const t = app()
      const beforeRows = await snapshotTables(t.ctx, tables)
      const value = typeof row.body === 'function' ? (row.body as () => unknown)() : row.body
      const body = value === undefined ? undefined : typeof value === 'string' || Buffer.isBuffer(value) ? value : JSON.stringify(value)
      const res = await t.signed(row.method, row.path(), { body, headers: row.headers })
      assert.equal(res.statusCode, row.status, res.body)
      assert.equal(res.json().message, typeof row.message === 'function' ? row.message() : row.message)
      assert.equal(await snapshotTables(t.ctx, tables), beforeRows)
    })
  }
}

/** The `page_token` of a `next_page`. */
export function tokenOf (nextPage: string): string {
  return new URLSearchParams(nextPage.split('?')[1]).get('page_token') as string
}

/** A token with its first character changed: no longer what the server signed. */
export function forge (token: string): string {
  return token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))
}
