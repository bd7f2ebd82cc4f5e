// One helper for every resource's role and tenant tests: the role matrix is written down here once,
// independently of src/auth/roles.ts, so a change to the code's matrix has to agree with it.
import assert from 'node:assert/strict'
import type { UserRole } from '../../src/auth/roles.ts'
import type { Caller, TestApp } from './app.ts'
import { snapshotTables } from './snapshot.ts'

export type Action = 'read' | 'write'

/** The role matrix of docs/api.md ("Roles"), per area. */
export const MAY: Record<string, Record<UserRole, Action[]>> = {
  assets: { administrator: ['read', 'write'], manager: ['read', 'write'], upload_only: ['read', 'write'], analytics_only: [], read_only: ['read'] },
  labels: { administrator: ['read', 'write'], manager: ['read', 'write'], upload_only: ['read'], analytics_only: [], read_only: ['read'] },
  players: { administrator: ['read', 'write'], manager: ['read', 'write'], upload_only: [], analytics_only: [], read_only: ['read'] },
  'publishing rules': { administrator: ['read', 'write'], manager: ['read', 'write'], upload_only: [], analytics_only: [], read_only: ['read'] },
  syndications: { administrator: ['read', 'write'], manager: ['read', 'write'], upload_only: [], analytics_only: [], read_only: ['read'] }
}

/**
 * One request of a route walk: GET reads, every other method writes. `reads` names another area the
 * request shows (an asset's player is a player): the role must also read that area.
 */
export interface RouteCall { method: string, path: string, body?: unknown, reads?: string }

export function actionOf (call: RouteCall): Action {
  return call.method === 'GET' || call.method === 'HEAD' ? 'read' : 'write'
}

/** How a role test names what a role may do on an area. */
export function roleTitle (area: string, role: UserRole): string {
  const may = MAY[area]?.[role] ?? []
  return `${role}: ${may.join(' and ') || 'nothing'} on every ${area} route, 403 naming the role otherwise`
}

/**
 * Makes every call as `caller` (in order: each succeeds for a role that may make it): 200 where the
 * role may, else 403 naming the role and the operation, with nothing written.
 */
export async function assertRoleMatrix (t: TestApp, area: string, role: UserRole, caller: Caller, calls: RouteCall[], tables: string[]): Promise<void> {
  for (const call of calls) {
    const action = actionOf(call)
    const beforeRows = await snapshotTables(t.ctx, tables)
    const res = await t.signed(call.method, call.path, { as: caller, body: bodyOf(call) })
    const mayArea = MAY[area]?.[role].includes(action) === true
    const mayAlso = call.reads === undefined || MAY[call.reads]?.[role].includes('read') === true
    if (mayArea && mayAlso) {
      assert.equal(res.statusCode, 200, `${call.method} ${call.path}: ${res.body}`)
    } else {
      assert.equal(res.statusCode, 403, `${call.method} ${call.path}`)
      assert.equal(res.json().message, mayArea ? `Role ${role} may not read ${call.reads}.` : `Role ${role} may not ${action} ${area}.`)
      assert.equal(await snapshotTables(t.ctx, tables), beforeRows, `${call.method} ${call.path} wrote something`)
    }
  }
}

/** Every call answers 404 (with `message`, when given) and writes nothing: another tenant's ids do not exist. */
export async function assertAbsent (t: TestApp, calls: RouteCall[], tables: string[], message?: string, as?: Caller): Promise<void> {
  const beforeRows = await snapshotTables(t.ctx, tables)
  for (const call of calls) {
    const res = await t.signed(call.method, call.path, { as, body: bodyOf(call) })
    assert.equal(res.statusCode, 404, `${call.method} ${call.path}: ${res.body}`)
    if (message !== undefined) assert.equal(res.json().message, message)
  }
  assert.equal(await snapshotTables(t.ctx, tables), beforeRows)
}

function bodyOf (call: RouteCall): string | undefined {
  return call.body === undefined ? undefined : JSON.stringify(call.body)
}
