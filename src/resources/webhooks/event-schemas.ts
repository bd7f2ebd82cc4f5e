import { Type, type TSchema } from 'typebox'
import { described, HexId, Timestamp } from '../../http/schemas.ts'
import type { EVENT_TYPES } from '../../webhooks/index.ts'

type EventType = typeof EVENT_TYPES[number]

/** The asset shapes as the operations' answers already put them in the document's components. */
const Asset = Type.Unsafe({ $ref: '#/components/schemas/Asset' })
const DeletedAsset = Type.Unsafe({ $ref: '#/components/schemas/DeletedAsset' })
const Stream = Type.Unsafe({ $ref: '#/components/schemas/Stream' })

const WebhookTestData = Type.Object({
  webhook_id: described(HexId, 'The endpoint the test was sent to', '3f2a9c0e5b7d4e1fa6c8b0d2e4f60718'),
  url: Type.String({ description: 'Its URL', examples: ['https://example.com/hooks/reelhouse'] })
}, { title: 'WebhookTestData', description: 'What a `webhook.test` event carries' })

const RenditionData = Type.Object({
  embed_code: Type.String({ description: 'The asset\'s embed code', examples: ['Zk3jQ9x-Lm2Pq8Rt5Vw1Yb4Nc7Hd0Gf6'] }),
  version: Type.String({ description: 'The media version the rendition belongs to (a replaced file makes a new one)', examples: ['v1a2b3c4'] }),
  rendition: Stream
}, { title: 'RenditionReadyData', description: 'What an `asset.rendition.ready` event carries: the rendition as `GET /v2/assets/{asset_id}/streams` shows it' })

/** Each event type: when it is sent, and its `data`. */
const EVENTS: Record<EventType, { when: string, data: TSchema }> = {
  'asset.created': { when: 'An asset was created.', data: Asset },
  'asset.updated': { when: 'An asset, its labels or its metadata changed (the media worker\'s steps too).', data: Asset },
  'asset.deleted': { when: 'An asset was deleted.', data: DeletedAsset },
  'asset.upload.completed': { when: 'An asset\'s upload finished (status `uploading` → `processing`).', data: Asset },
  'asset.playable': { when: 'An asset\'s media can first be played (status → `live` or `paused`).', data: Asset },
  'asset.rendition.ready': { when: 'One rendition of an asset\'s media is made (its playlist complete); one event per rendition.', data: RenditionData },
  'asset.ready': { when: 'An asset\'s whole ladder of renditions is made.', data: Asset },
  'asset.errored': { when: 'Processing failed (status → `error`); `processing_error` says why.', data: Asset },
  'webhook.test': { when: 'Sent by `POST /v2/webhooks/{webhook_id}/test` to that endpoint alone.', data: WebhookTestData }
}

/** `asset.created` → `AssetCreatedEvent`: the name of an event's payload schema. */
function titleOf (type: string): string {
  return `${type.split(/[._]/).map((word) => word[0]?.toUpperCase() + word.slice(1)).join('')}Event`
}

/** The payload of one event type: `{id, type, created_at, account_id, data}`. */
function payloadOf (type: string, when: string, data: TSchema): TSchema {
  return Type.Object({
    id: Type.String({ pattern: '^evt_[0-9a-f]{32}$', description: 'The event\'s id: the `webhook-id` header, the same on every attempt', examples: ['evt_5e0f3a9b8c7d4e2f9a1b6c3d8e7f0a1b'] }),
    type: Type.Literal(type, { description: 'The event type', examples: [type] }),
    created_at: described(Timestamp, 'When the change happened', '2026-11-22T10:00:00Z'),
    account_id: described(HexId, 'The account whose resource changed', '9c1e5a7b3d2f4e6a8b0c1d2e3f4a5b6c'),
    // The resource as an administrator saw it when the change happened (recorded in that transaction).
    data
  }, { title: titleOf(type), description: `${when} Signed with the Standard Webhooks headers (docs/webhooks.md).` })
}

const HEADERS = [
  { name: 'webhook-id', description: 'The event\'s id, the same on every attempt: skip one you have processed', example: 'evt_5e0f3a9b8c7d4e2f9a1b6c3d8e7f0a1b' },
  { name: 'webhook-timestamp', description: 'When this attempt was signed, in Unix seconds: refuse one more than 5 minutes away', example: '1795341600' },
  { name: 'webhook-signature', description: '`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per secret, space-separated (two during a rotation)', example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' }
]

/**
 * The OpenAPI `webhooks` object: one entry per event type, the POST a receiver gets, with the payload
 * schema of that type. Any 2xx ends a delivery; `410 Gone` disables the endpoint; anything else retries.
 */
export function webhookEventsDocument (): Record<string, unknown> {
  return Object.fromEntries(Object.entries(EVENTS).map(([type, { when, data }]) => [type, {
    post: {
      operationId: `${titleOf(type)[0]?.toLowerCase()}${titleOf(type).slice(1)}`,
      summary: `The ${type} event`,
      description: `${when} POSTed to each enabled endpoint that takes this type, at least once, retried with backoff for about a day (docs/webhooks.md).`,
      tags: ['webhooks'],
      security: [],
      parameters: HEADERS.map((header) => ({ in: 'header', name: header.name, required: true, description: header.description, schema: { type: 'string', examples: [header.example] }, example: header.example })),
      requestBody: { required: true, content: { 'application/json': { schema: payloadOf(type, when, data) } } },
      responses: {
        200: { description: 'Any 2xx answer: delivered; no more attempts' },
        410: { description: 'Gone: the endpoint is disabled, with that reason' },
        default: { description: 'Any other answer (or none within 10 seconds): the event is sent again later, with the same `webhook-id`' }
      }
    }
  }]))
}
