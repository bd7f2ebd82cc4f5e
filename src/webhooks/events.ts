/**
 * The event types (docs/webhooks.md, "Events"). The media side records `asset.rendition.ready` and
 * `asset.ready`; `webhook.test` is sent by `POST /v2/webhooks/:id/test` to that endpoint alone.
 */
export const EVENT_TYPES = [
  'asset.created', 'asset.updated', 'asset.deleted', 'asset.upload.completed', 'asset.playable', 'asset.ready',
  'asset.errored', 'asset.rendition.ready', 'asset.captions.ready', 'webhook.test'
] as const
