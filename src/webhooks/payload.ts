/** An event row as it is stored: `data` is the JSON snapshotted in the writing transaction. */
export interface StoredEvent { id: string, type: string, data: string, created_at: string }

/**
 * The body of an event, byte for byte the same on every attempt and in the listen stream:
 * `{id, type, created_at, account_id, data}` (docs/webhooks.md, "Events").
 */
export function eventBody (event: StoredEvent, accountId: string): string {
  return `{"id":${JSON.stringify(event.id)},"type":${JSON.stringify(event.type)},"created_at":${JSON.stringify(event.created_at.slice(0, 19) + 'Z')},"account_id":${JSON.stringify(accountId)},"data":${event.data}}`
}
