/**
 * Verifying the webhooks Reelhouse sends (Standard Webhooks signatures; docs/webhooks.md), with Web
 * Crypto only: it runs in Node ≥ 20, Deno, Bun, edge runtimes and browsers alike.
 */

/** The headers of a delivery, as your framework gives them (names in any case; a Headers object works too). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>

export interface VerifyOptions {
  /** How far the `webhook-timestamp` may be from now, in seconds (default 300: five minutes). */
  toleranceSeconds?: number
  /** Now, in milliseconds (default `Date.now()`). */
  now?: number
}

/** A delivery that did not verify: an old or future timestamp, a missing header, no matching signature. */
export class WebhookVerificationError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'WebhookVerificationError'
  }
}

const encoder = new TextEncoder()

/**
 * Checks a delivery's signature with your endpoint's secret (`whsec_…`) and answers its parsed payload;
 * throws `WebhookVerificationError` when it does not verify. Pass the body exactly as received (the
 * raw text or bytes, not a re-serialised object). During a rotation either secret verifies.
 * @example
 * const event = await verifyWebhook(rawBody, request.headers, process.env.REELHOUSE_WEBHOOK_SECRET)
 * if (event.type === 'asset.ready') console.log(event.data.embed_code)
 */
export async function verifyWebhook<T = { id: string, type: string, created_at: string, account_id: string, data: any }> (body: string | Uint8Array, headers: WebhookHeaders, secret: string, options: VerifyOptions = {}): Promise<T> {
  const id = header(headers, 'webhook-id')
  const timestamp = header(headers, 'webhook-timestamp')
  const signatures = header(headers, 'webhook-signature')
  if (id === undefined || timestamp === undefined || signatures === undefined) throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header.')
  const seconds = Number(timestamp)
  if (!/^\d+$/.test(timestamp) || !Number.isSafeInteger(seconds)) throw new WebhookVerificationError('Invalid webhook-timestamp header.')
  const tolerance = options.toleranceSeconds ?? 300
  const now = Math.floor((options.now ?? Date.now()) / 1000)
  if (Math.abs(now - seconds) > tolerance) throw new WebhookVerificationError(`The webhook-timestamp is more than ${tolerance} seconds ${seconds < now ? 'old' : 'in the future'}.`)
  const text = typeof body === 'string' ? encoder.encode(body) : body
  const prefix = encoder.encode(`${id}.${timestamp}.`)
  const signed = new Uint8Array(new ArrayBuffer(prefix.length + text.length))
  signed.set(prefix)
  signed.set(text, prefix.length)
  const key = await crypto.subtle.importKey('raw', fromBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify'])
  for (const candidate of signatures.split(' ')) {
    const [version, value] = candidate.split(',', 2)
    if (version !== 'v1' || value === undefined) continue
    let bytes: Uint8Array<ArrayBuffer>
    try { bytes = fromBase64(value) } catch { continue }
    // crypto.subtle.verify compares in constant time.
    if (await crypto.subtle.verify('HMAC', key, bytes, signed)) {
      return JSON.parse(typeof body === 'string' ? body : new TextDecoder().decode(body)) as T
    }
  }
  throw new WebhookVerificationError('No signature matches this secret.')
}

function header (headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value
  }
  return undefined
}

function fromBase64 (text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text)
  const bytes = new Uint8Array(new ArrayBuffer(binary.length))
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}
