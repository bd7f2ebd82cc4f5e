import { Type } from 'typebox'

/** Schemas of the indexing service (docs/search-and-indexing.md, "The indexing service"). */

export const ReindexBody = Type.Object({
  accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Reindex this account only' }))
}, { additionalProperties: false, description: '{} reindexes every account' })

export const Reindexed = Type.Object({ queued: Type.Integer({ description: 'Entries queued' }) })

export const QueueParams = Type.Object({ vhost: Type.String(), name: Type.String() })

/** The members of RabbitMQ's `GET /api/queues/{vhost}/{name}` that clients read, plus our own details. */
export const QueueStatus = Type.Object({
  name: Type.String(),
  vhost: Type.String(),
  durable: Type.Boolean(),
  auto_delete: Type.Boolean(),
  type: Type.String(),
  state: Type.String(),
  consumers: Type.Integer(),
  messages: Type.Integer({ description: 'Pending entries' }),
  messages_ready: Type.Integer(),
  messages_unacknowledged: Type.Integer({ description: 'Claimed by a consumer' }),
  reelhouse: Type.Object({
    delayed: Type.Integer({ description: 'Waiting out a retry backoff (counted in messages)' }),
    parked: Type.Integer({ description: 'Given up on after repeated failures (not counted in messages)' }),
    oldest_enqueued_at: Type.Union([Type.String(), Type.Null()])
  })
})

/** RabbitMQ's own 404 body for an unknown queue. */
export const QueueNotFound = Type.Object({ error: Type.String(), reason: Type.String() })

export const OutboxStatus = Type.Object({
  queue: Type.Union([Type.Literal('embedded'), Type.Literal('rabbitmq')]),
  entries: Type.Integer({ description: 'Rows in the outbox' }),
  unpublished: Type.Integer({ description: 'RabbitMQ: not yet handed to the broker (0 when embedded)' }),
  published: Type.Integer({ description: 'RabbitMQ: in the broker, not yet received' }),
  leased: Type.Integer(),
  delayed: Type.Integer(),
  parked: Type.Integer(),
  oldest_enqueued_at: Type.Union([Type.String(), Type.Null()])
})

export const ParkedQuery = Type.Object({ accountId: Type.Optional(Type.String()) })

export const ParkedEntries = Type.Object({
  items: Type.Array(Type.Object({
    account_id: Type.String(), type: Type.String(), id: Type.String(), reason: Type.String(), attempts: Type.Integer(), parked_at: Type.String()
  }))
})
