import { apiTime } from '../../lib/clock.ts'
import type { PlayerRow } from './players-repository.ts'
import type { ApiPlayer } from './players-schemas.ts'
import { settingsOf } from './players-input.ts'

/** The one mapping from a players row to its API shape (metadata is its own sub-resource). */
export function toApiPlayer (row: PlayerRow): ApiPlayer {
  return {
    id: row.id,
    ...settingsOf(row),
    created_at: apiTime(row.created_at) as string,
    updated_at: apiTime(row.updated_at) as string
  }
}
