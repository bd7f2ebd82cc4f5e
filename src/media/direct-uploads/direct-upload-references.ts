import type { Kysely } from 'kysely'
import { allows, type UserRole } from '../../auth/roles.ts'
import type { DB } from '../../db/tables/index.ts'
import type { NewAssetSettings } from './direct-uploads-schemas.ts'

/**
 * What `new_asset_settings` names in the account (a player, a publishing rule, labels) and the creator
 * of a direct upload, read from the database: checked when the direct upload is made and again when
 * its upload completes.
 */
export function directUploadReferences (db: Kysely<DB>) {
  async function exists (table: 'players' | 'publishing_rules', accountId: string, id: string): Promise<boolean> {
    return await db.selectFrom(table).select('id').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst() !== undefined
  }

  async function missingLabels (accountId: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return []
    const found = new Set((await db.selectFrom('labels').select('id').where('account_id', '=', accountId).where('id', 'in', [...ids]).execute()).map((row) => row.id))
    return ids.filter((id) => !found.has(id))
  }

  /** One sentence per reference that does not exist. */
  async function missing (accountId: string, settings: NewAssetSettings): Promise<string[]> {
    const problems: string[] = []
    if (settings.player_id !== undefined && !await exists('players', accountId, settings.player_id)) problems.push(`player ${settings.player_id} does not exist`)
    if (settings.publishing_rule_id !== undefined && !await exists('publishing_rules', accountId, settings.publishing_rule_id)) problems.push(`publishing rule ${settings.publishing_rule_id} does not exist`)
    for (const id of await missingLabels(accountId, settings.labels ?? [])) problems.push(`label ${id} does not exist`)
    return problems
  }

  return {
    missing,

    /** The settings with what no longer exists (or the role may no longer use) dropped, and a warning for each. */
    async revalidated (accountId: string, settings: NewAssetSettings, role: UserRole): Promise<{ kept: NewAssetSettings, warnings: string[] }> {
      const kept = { ...settings }
      const warnings: string[] = []
      if (kept.player_id !== undefined && (!allows(role, ['players', 'read']) || !await exists('players', accountId, kept.player_id))) {
        warnings.push(`player ${kept.player_id} was dropped: it no longer exists or the creator may not use it`)
        delete kept.player_id
      }
      if (kept.publishing_rule_id !== undefined && (!allows(role, ['publishing_rules', 'read']) || !await exists('publishing_rules', accountId, kept.publishing_rule_id))) {
        warnings.push(`publishing rule ${kept.publishing_rule_id} was dropped: it no longer exists or the creator may not use it`)
        delete kept.publishing_rule_id
      }
      const gone = new Set(await missingLabels(accountId, kept.labels ?? []))
      if (gone.size > 0) {
        for (const id of gone) warnings.push(`label ${id} was dropped: it no longer exists`)
        kept.labels = (kept.labels ?? []).filter((id) => !gone.has(id))
      }
      return { kept, warnings }
    },

    async creator (accountId: string, userId: string): Promise<{ id: string, role: string, account_code: string } | undefined> {
      return await db.selectFrom('users').innerJoin('accounts', 'accounts.id', 'users.account_id')
        .select(['users.id as id', 'users.role as role', 'accounts.code as account_code'])
        .where('users.account_id', '=', accountId).where('users.id', '=', userId).executeTakeFirst()
    }
  }
}
