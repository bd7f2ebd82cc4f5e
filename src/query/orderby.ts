import { validationError } from '../errors/api-error.ts'

export type SortDirection = 'asc' | 'desc'

/** A sort key as API names; the resource maps the field to its column and adds its own tie-breaker. */
export interface OrderBy<F extends string = string> {
  field: F
  direction: SortDirection
}

/** The asset list's sort fields (docs/resources.md, "Assets"). */
export const DEFAULT_ORDER_FIELDS = ['name', 'duration', 'asset_type', 'created_at', 'updated_at'] as const
export type DefaultOrderField = typeof DEFAULT_ORDER_FIELDS[number]

export interface OrderByOptions<F extends string> {
  fields: readonly F[]
  /** Used when `orderby` is absent or blank; defaults to `created_at descending`. */
  default?: OrderBy<NoInfer<F>>
}

const DIRECTIONS = new Map<string, SortDirection>([['ascending', 'asc'], ['asc', 'asc'], ['descending', 'desc'], ['desc', 'desc']])

/**
 * Parses `orderby`: one field, optionally followed by a direction, separated by spaces or `+`
 * (`name`, `name+DESCENDING`, `created_at ascending`), case-insensitively. `asc`/`desc` are accepted
 * besides the documented `ascending`/`descending`; a field without a direction sorts ascending, as in SQL.
 * @throws ApiError validation_failed naming the parameter.
 * @example parseOrderBy('name+DESCENDING') // { field: 'name', direction: 'desc' }
 */
export function parseOrderBy (raw: string | undefined): OrderBy<DefaultOrderField>
export function parseOrderBy<F extends string> (raw: string | undefined, options: OrderByOptions<F>): OrderBy<F>
export function parseOrderBy (raw: string | undefined, options: OrderByOptions<string> = { fields: DEFAULT_ORDER_FIELDS }): OrderBy {
  const fallback = options.default ?? { field: 'created_at', direction: 'desc' }
  // A programming error, not a client's: caught by the resource's first test.
  if (!options.fields.includes(fallback.field)) throw new Error(`default orderby field ${fallback.field} is not among the fields`)
  const words = (raw ?? '').split(/[\s+]+/).filter((word) => word !== '')
  if (words.length === 0) return { ...fallback }
  const usage = `orderby takes one of ${options.fields.join(', ')}, optionally followed by ascending or descending`
  if (words.length > 2) throw invalid(`Cannot order by '${raw}'; ${usage}.`)
  const field = options.fields.find((candidate) => candidate.toLowerCase() === words[0].toLowerCase())
  if (field === undefined) throw invalid(`Cannot order by '${words[0]}'; ${usage}.`)
  if (words.length === 1) return { field, direction: 'asc' }
  const direction = DIRECTIONS.get(words[1].toLowerCase())
  if (direction === undefined) throw invalid(`Unknown sort direction '${words[1]}'; ${usage}.`)
  return { field, direction }
}

function invalid (message: string): Error {
  return validationError(message, { orderby: [message] })
}
