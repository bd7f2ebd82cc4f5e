import type { Kysely } from 'kysely'
import type { DB, PublishingRulesTable } from '../../db/tables/index.ts'
import { crudRepository } from '../kit/crud-repository.ts'

export type PublishingRuleRow = PublishingRulesTable

/** Publishing rules of one account. Every function takes the account id first and filters on it. */
export function createPublishingRulesRepository (db: Kysely<DB>) {
  return crudRepository(db, 'publishing_rules')
}
