import { madeFrom } from '../../http/serialised-once.ts'
import { apiTime } from '../../lib/clock.ts'
import type { PlayerRow } from './players-repository.ts'
import type { ApiPlayer } from './players-schemas.ts'
import { settingsOf } from './players-input.ts'

/**
 * Rows served from the read cache are the same object until they change, so each is mapped once:
 * the three JSON columns are not parsed again on every GET, and its JSON is written once (`madeFrom`,
 * docs/benchmarks.md). Answers are never modified after mapping.
 */
const mapped = new WeakMap<PlayerRow, ApiPlayer>()

/** The one mapping from a players row to its API shape (metadata is its own sub-resource). */
export function toApiPlayer (row: PlayerRow): ApiPlayer {
  let player = mapped.get(row)
  if (player === undefined) mapped.set(row, player = madeFrom(mapRow(row), row))
  return player
}

function mapRow (row: PlayerRow): ApiPlayer {
  return {
    id: row.id,
    ...settingsOf(row),
    created_at: apiTime(row.created_at) as string,
    updated_at: apiTime(row.updated_at) as string
  }
}
