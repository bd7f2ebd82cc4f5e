import { ApiError } from '../errors/api-error.ts'

export const USER_ROLES = ['administrator', 'manager', 'upload_only', 'analytics_only', 'read_only'] as const
export type UserRole = typeof USER_ROLES[number]

/**
 * `self`: the caller's own user (`/v2/users/me`); `credits`: the account's balance. Every role reads both.
 * `processing_queue`: the account's media jobs waiting and running (administrators). `playback_keys`: the
 * keys that sign playback tokens (administrators).
 */
export type Area = 'assets' | 'labels' | 'players' | 'syndications' | 'publishing_rules' | 'analytics' | 'users' | 'webhooks' | 'credits' | 'self' | 'processing_queue' | 'playback_keys'
export type Action = 'read' | 'write' | 'import'

/** What a route needs: `['labels', 'write']`. Every signed route declares one in `config.permission`. */
export type Permission = readonly [Area, Action]

/**
 * A route's `config.permission`: one permission, or several that must all hold. An asset's player is
 * read through the asset but is a player: `[['assets', 'read'], ['players', 'read']]`.
 */
export type RouteAccess = Permission | readonly Permission[]

const ALL: Action[] = ['read', 'write']

/**
 * The role matrix (docs/api.md, "Roles"), the only place it is written down. `upload_only` may write assets,
 * but only the ones it created: the assets service narrows its queries with `ownAssetsOnly`.
 */
const MATRIX: Record<UserRole, Partial<Record<Area, Action[]>>> = {
  administrator: { assets: ALL, labels: ALL, players: ALL, syndications: ALL, publishing_rules: ALL, analytics: ['read', 'import'], users: ALL, webhooks: ALL, credits: ['read'], self: ['read'], processing_queue: ['read'], playback_keys: ALL },
  manager: { assets: ALL, labels: ALL, players: ALL, syndications: ALL, publishing_rules: ALL, analytics: ['read'], credits: ['read'], self: ['read'] },
  upload_only: { assets: ALL, labels: ['read'], credits: ['read'], self: ['read'] },
  analytics_only: { analytics: ['read'], credits: ['read'], self: ['read'] },
  read_only: { assets: ['read'], labels: ['read'], players: ['read'], syndications: ['read'], publishing_rules: ['read'], analytics: ['read'], credits: ['read'], self: ['read'] }
}

export function isUserRole (value: string): value is UserRole {
  return (USER_ROLES as readonly string[]).includes(value)
}

export function allows (role: UserRole, [area, action]: Permission): boolean {
  return MATRIX[role][area]?.includes(action) ?? false
}

/** Whether the role holds every permission of `access` (what `assertAllowed` checks, without the error). */
export function allowsAll (role: UserRole, access: RouteAccess): boolean {
  return permissionsOf(access).every((permission) => allows(role, permission))
}

function permissionsOf (access: RouteAccess): readonly Permission[] {
  return (typeof access[0] === 'string' ? [access] : access) as readonly Permission[]
}

/** Throws the 403 of docs/api.md ("Roles"), naming the role and the first operation it may not do. */
export function assertAllowed (role: UserRole, access: RouteAccess): void {
  for (const permission of permissionsOf(access)) {
    if (!allows(role, permission)) {
      const [area, action] = permission
      throw new ApiError('permission_denied', `Role ${role} may not ${action} ${area.replace('_', ' ')}.`)
    }
  }
}

/** upload_only sees and changes only the assets it created. */
export function ownAssetsOnly (role: UserRole): boolean {
  return role === 'upload_only'
}
