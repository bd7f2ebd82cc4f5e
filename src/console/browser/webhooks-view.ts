import { h } from './dom.ts'
import { attempt, mainView, type Session } from './shell.ts'

interface Webhook { id: string, url: string, events: string[] | null, description: string, enabled: boolean, disabled_reason: string | null }
interface Delivery { id: string, event_type: string, state: string, attempt_count: number, last_status: number | null, last_error: string | null, latency_ms: number | null, next_attempt_at: string | null, created_at: string }

/** Deliveries shown per endpoint: the newest; the CLI and the API page through the rest. */
const LAST_DELIVERIES = 10

const when = (time: string | null): string => time === null ? '' : time.slice(0, 16).replace('T', ' ')

/**
 * `#/webhooks` (administrators): every endpoint of the account, whether it is enabled (or why not), and
 * its last deliveries with their state, attempts and last answer (docs/console.md, "Webhooks").
 */
export function webhooksView (session: Session): void {
  const main = mainView('Webhooks')
  const list = h('div', { class: 'webhooks', 'aria-busy': 'true' })
  main.append(h('div', { class: 'view-head' }, h('h1', { tabindex: '-1' }, 'Webhooks')), list)
  void attempt(async () => {
    const hooks: Webhook[] = []
    for await (const hook of session.client.paginate<Webhook>('/v2/webhooks')) hooks.push(hook)
    const cards = await Promise.all(hooks.map(async (hook) => {
      const page = await session.client.request<{ items: Delivery[] }>('GET', `/v2/webhooks/${encodeURIComponent(hook.id)}/deliveries?limit=${LAST_DELIVERIES}`)
      return endpointCard(hook, page.items)
    }))
    list.replaceChildren(...(cards.length === 0
      ? [h('p', { class: 'summary' }, 'No webhook endpoints. Register one with POST /v2/webhooks or `reelhouse webhooks create --url URL` (docs/webhooks.md).')]
      : [h('p', { class: 'summary' }, `${hooks.length} endpoint${hooks.length === 1 ? '' : 's'}`), ...cards]))
    list.setAttribute('aria-busy', 'false')
  })
}

function endpointCard (hook: Webhook, deliveries: Delivery[]): HTMLElement {
  const state = hook.enabled
    ? h('span', { class: 'badge status-live' }, 'enabled')
    : h('span', { class: 'badge status-error' }, hook.disabled_reason === null ? 'disabled' : `disabled: ${hook.disabled_reason}`)
  const table = deliveries.length === 0
    ? h('p', { class: 'summary' }, 'No deliveries yet.')
    : h('div', { class: 'table-wrap' }, h('table', { class: 'asset-table deliveries-table', 'aria-label': `Last deliveries to ${hook.url}` },
      h('thead', {}, h('tr', {}, ...['Created', 'Event', 'State', 'Attempts', 'Last answer', 'Next attempt'].map((label) => h('th', { scope: 'col' }, label)))),
      h('tbody', {}, ...deliveries.map((d) => h('tr', { 'data-delivery': d.id },
        h('td', {}, when(d.created_at)),
        h('td', {}, d.event_type),
        h('td', {}, h('span', { class: `badge delivery-${d.state}` }, d.state)),
        h('td', {}, d.attempt_count),
        h('td', {}, d.last_status !== null ? `${d.last_status}${d.latency_ms === null ? '' : ` in ${d.latency_ms} ms`}` : d.last_error ?? ''),
        h('td', {}, when(d.next_attempt_at)))))))
  return h('section', { class: 'card webhook-card', 'data-webhook': hook.id },
    h('h2', { class: 'webhook-url' }, hook.url),
    h('p', {}, state, ' ', hook.events === null ? 'every event' : hook.events.join(', '), hook.description === '' ? null : ` · ${hook.description}`),
    table)
}
