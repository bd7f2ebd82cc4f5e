import { createHmac, randomBytes } from 'node:crypto'

/** A new endpoint secret: `whsec_` and the base64 of 32 random bytes (docs/webhooks.md). */
export function newWebhookSecret (): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

/** The key bytes of a `whsec_…` secret. */
function keyOf (secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64')
}

/**
 * The Standard Webhooks headers of one attempt: the event id, this attempt's time in seconds, and one
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per secret (two during a rotation's overlap).
 * @example signatureHeaders('evt_…', Math.floor(Date.now() / 1000), body, [secret])
 */
export function signatureHeaders (eventId: string, timestampSeconds: number, body: string, secrets: readonly string[]): Record<string, string> {
  const signed = `${eventId}.${timestampSeconds}.${body}`
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(signed).digest('base64')}`).join(' ')
  }
}
