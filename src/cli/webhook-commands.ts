import type { Command } from 'commander'
import { UsageError } from './cli-error.ts'
import { confirm } from './confirm.ts'
import { connect } from './connection.ts'
import { positive, resourceCommand, take, type OutputFlags } from './resource-commands.ts'
import { printList, printOne, wantsJson, type Column } from './table.ts'
import { forwardTarget, listen, type ForwardOutcome } from './webhook-listen.ts'

interface Webhook { id: string, url: string, events: string[] | null, description: string, enabled: boolean, disabled_reason: string | null, created_at: string, updated_at: string }
interface Delivery { id: string, event_id: string, event_type: string, state: string, attempt_count: number, last_status: number | null, last_error: string | null, latency_ms: number | null, next_attempt_at: string | null, created_at: string }

const minute = (time: string | null): string => time === null ? '' : time.slice(0, 16).replace('T', ' ')
const path = (id: string): string => `/v2/webhooks/${encodeURIComponent(id)}`

const WEBHOOK_COLUMNS: Array<Column<Webhook>> = [
  { heading: 'id', value: (hook) => hook.id },
  { heading: 'enabled', value: (hook) => hook.enabled ? 'yes' : `no${hook.disabled_reason === null ? '' : ` (${hook.disabled_reason})`}` },
  { heading: 'events', value: (hook) => hook.events === null ? 'all' : hook.events.join(',') },
  { heading: 'url', value: (hook) => hook.url },
  { heading: 'description', value: (hook) => hook.description }
]

const DELIVERY_COLUMNS: Array<Column<Delivery>> = [
  { heading: 'id', value: (d) => d.id },
  { heading: 'created', value: (d) => minute(d.created_at) },
  { heading: 'event', value: (d) => d.event_type },
  { heading: 'state', value: (d) => d.state },
  { heading: 'attempts', value: (d) => String(d.attempt_count) },
  { heading: 'last answer', value: (d) => d.last_status !== null ? `${d.last_status}${d.latency_ms === null ? '' : ` in ${d.latency_ms} ms`}` : d.last_error ?? '' },
  { heading: 'next attempt', value: (d) => minute(d.next_attempt_at) }
]

/**
 * `reelhouse webhooks list|get|create|delete|deliveries|retry|test|listen`: the account's webhook
 * endpoints and their deliveries (administrators only), and forwarding its events to a local receiver
 * (docs/cli.md, "Webhooks"; docs/webhooks.md).
 */
export function registerWebhookCommands (program: Command): void {
  const webhooks = program.command('webhooks').description('webhook endpoints, their deliveries, and forwarding events to this machine')

  resourceCommand(webhooks, 'list', 'list the webhook endpoints (every page)', ['reelhouse webhooks list', 'reelhouse webhooks list --json | jq -r .url'])
    .option('--page-size <n>', 'endpoints per request, 1–500 (default: the server\'s, 100)')
    .action(async (flags: OutputFlags & { pageSize?: string }) => {
      await printList(connect(flags).client.paginate<Webhook>(`/v2/webhooks${pageQuery(flags.pageSize, undefined)}`), WEBHOOK_COLUMNS, flags, 'webhook')
    })

  resourceCommand(webhooks, 'get', 'show one webhook endpoint', ['reelhouse webhooks get 3f2a9c0e…'])
    .argument('<id>', 'the endpoint\'s id')
    .action(async (id: string, flags: OutputFlags) => {
      printOne(await connect(flags).client.request<Webhook>('GET', path(id)), flags)
    })

  resourceCommand(webhooks, 'create', 'register an endpoint; prints it with its secret, shown only this once', [
    'reelhouse webhooks create --url https://example.com/hooks', 'reelhouse webhooks create --url https://example.com/hooks --events asset.ready,asset.errored --description Production'
  ])
    .requiredOption('--url <url>', 'where events are POSTed (https:// and a public host)')
    .option('--events <types>', 'the event types to send, comma-separated (default: all)')
    .option('--description <text>', 'what the endpoint is for')
    .action(async (flags: OutputFlags & { url: string, events?: string, description?: string }) => {
      const events = flags.events === undefined ? undefined : eventList(flags.events)
      // The route refuses an Idempotency-Key (no replay store may keep the secret): sent once, unretried.
      const created = await connect(flags).client.request<Webhook & { secret: string }>('POST', '/v2/webhooks', { maxRetries: 0, body: { url: flags.url, ...(events === undefined ? {} : { events }), ...(flags.description === undefined ? {} : { description: flags.description }) } })
      printOne(created, flags)
      if (!wantsJson(flags)) process.stderr.write('\nKeep the secret: it is shown only this once (POST /v2/webhooks/:id/secret makes a new one).\n')
    })

  resourceCommand(webhooks, 'delete', 'delete an endpoint and its deliveries (asks first on a terminal; --yes does not ask)', ['reelhouse webhooks delete 3f2a9c0e…', 'reelhouse webhooks delete 3f2a9c0e… --yes'])
    .argument('<id>', 'the endpoint\'s id')
    .option('-y, --yes', 'delete without asking (needed when not at a terminal)')
    .action(async (id: string, flags: OutputFlags & { yes?: boolean }) => {
      const { client } = connect(flags)
      // Read first: the question names what is deleted, and a wrong id fails before anyone is asked.
      const hook = await client.request<Webhook>('GET', path(id))
      if (!await confirm(`Delete webhook ${hook.id} (${hook.url}) and its deliveries?`, flags.yes)) {
        process.stderr.write('Not deleted.\n')
        return
      }
      await client.request('DELETE', path(hook.id))
      process.stderr.write(`Deleted webhook ${hook.id}.\n`)
    })

  resourceCommand(webhooks, 'deliveries', 'list an endpoint\'s deliveries, newest first (every page unless --limit)', ['reelhouse webhooks deliveries 3f2a9c0e…', 'reelhouse webhooks deliveries 3f2a9c0e… --limit 20 --json | jq .attempts'])
    .argument('<id>', 'the endpoint\'s id')
    .option('--limit <n>', 'stop after this many deliveries')
    .option('--page-size <n>', 'deliveries per request, 1–500 (default: the server\'s, 100)')
    .action(async (id: string, flags: OutputFlags & { limit?: string, pageSize?: string }) => {
      const limit = flags.limit === undefined ? undefined : positive('--limit', flags.limit)
      const list = connect(flags).client.paginate<Delivery>(`${path(id)}/deliveries${pageQuery(flags.pageSize, limit)}`)
      await printList(take(list, limit), DELIVERY_COLUMNS, flags, 'delivery')
    })

  resourceCommand(webhooks, 'retry', 'one more attempt of a delivery now, with the same webhook-id', ['reelhouse webhooks retry 3f2a9c0e… 9b1d4e7a…'])
    .argument('<id>', 'the endpoint\'s id')
    .argument('<delivery_id>', 'the delivery\'s id (from `reelhouse webhooks deliveries`)')
    .action(async (id: string, deliveryId: string, flags: OutputFlags) => {
      printOne(await connect(flags).client.request<Delivery>('POST', `${path(id)}/deliveries/${encodeURIComponent(deliveryId)}/retry`), flags)
    })

  resourceCommand(webhooks, 'test', 'send a webhook.test event to an endpoint', ['reelhouse webhooks test 3f2a9c0e…'])
    .argument('<id>', 'the endpoint\'s id')
    .action(async (id: string, flags: OutputFlags) => {
      const sent = await connect(flags).client.request<{ event_id: string }>('POST', `${path(id)}/test`)
      if (wantsJson(flags)) console.log(JSON.stringify(sent))
      else console.log(`Sent ${sent.event_id}; \`reelhouse webhooks deliveries ${id}\` shows how it went.`)
    })

  resourceCommand(webhooks, 'listen', 'forward the account\'s events, as they happen, to a URL on this machine, signed (the service never connects here)', [
    'reelhouse webhooks listen --forward-to http://localhost:3000/hooks',
    'reelhouse webhooks listen --forward-to http://localhost:3000/hooks --events asset.ready --forward-secret "$REELHOUSE_WEBHOOK_SECRET"'
  ])
    .requiredOption('--forward-to <url>', 'the local receiver, e.g. http://localhost:3000/hooks')
    .option('--forward-secret <secret>', 'sign with this whsec_… secret (default: a new one, printed when the stream opens)')
    .option('--events <types>', 'forward only these event types, comma-separated')
    .action(async (flags: OutputFlags & { forwardTo: string, forwardSecret?: string, events?: string }) => {
      const forwardTo = forwardTarget(flags.forwardTo)
      if (flags.forwardSecret !== undefined && !/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(flags.forwardSecret)) throw new UsageError('--forward-secret must be a whsec_… secret (whsec_ and base64)')
      const json = wantsJson(flags)
      await listen(connect(flags), {
        forwardTo,
        secret: flags.forwardSecret,
        types: flags.events === undefined ? undefined : new Set(eventList(flags.events)),
        status: (line) => { process.stderr.write(`${line}\n`) },
        report: (outcome: ForwardOutcome) => {
          if (json) console.log(JSON.stringify(outcome))
          else console.log(`${new Date().toISOString().slice(11, 19)}  ${outcome.type.padEnd(22)} ${outcome.event_id}  → ${outcome.status ?? outcome.error} (${outcome.latency_ms} ms)`)
        }
      })
    })
}

/** `?limit=` of each page request: --page-size, else no more than --limit needs. */
function pageQuery (pageSize: string | undefined, limit: number | undefined): string {
  const size = pageSize === undefined ? (limit === undefined ? undefined : Math.min(limit, 500)) : positive('--page-size', pageSize)
  return size === undefined ? '' : `?limit=${size}`
}

function eventList (text: string): string[] {
  const types = text.split(',').map((type) => type.trim()).filter((type) => type !== '')
  if (types.length === 0) throw new UsageError('--events takes event types separated by commas, e.g. asset.ready,asset.errored')
  return types
}
