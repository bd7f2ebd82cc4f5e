import { field, h } from './dom.ts'
import { attempt, type Session } from './shell.ts'

/** One hit of `GET /v2/search/transcripts`. */
interface TranscriptHit {
  asset_id: string
  language: string
  start_ms: number
  end_ms: number
  text: string
  highlight: string
}

const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': '\'' }

/** A hit's `highlight` (escaped text with `<em>` around the matched words) as nodes: nothing in it is taken as markup but `em`. */
function highlighted (highlight: string): Node[] {
  let inside = false
  const nodes: Node[] = []
  for (const part of highlight.split(/(<em>|<\/em>)/)) {
    if (part === '<em>' || part === '</em>') { inside = part === '<em>'; continue }
    if (part === '') continue
    const text = part.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity] ?? entity)
    nodes.push(inside ? h('mark', {}, text) : document.createTextNode(text))
  }
  return nodes
}

/** `m:ss` (or `h:mm:ss`) of a time in ms. */
function at (ms: number): string {
  const total = Math.floor(ms / 1000)
  const s = String(total % 60).padStart(2, '0')
  const m = Math.floor(total / 60) % 60
  const hours = Math.floor(total / 3600)
  return hours > 0 ? `${hours}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`
}

/**
 * The library's search of what is said (docs/captions.md, "Searching what is said"): a form whose words
 * go to `GET /v2/search/transcripts`, and its hits, each a link that opens the asset's player at the
 * moment the words are said (`#/assets/<id>?t=<seconds>`). `said` is the search in the address.
 */
export function spokenSearch (session: Session, said: string, go: (said: string) => void): HTMLElement {
  const input = h('input', { type: 'search', name: 'said', value: said, placeholder: 'Words spoken in the videos' })
  const form = h('form', { class: 'filters', role: 'search', 'aria-label': 'Spoken words' },
    field('Search what is said', input), h('button', { type: 'submit' }, 'Find'))
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    go(input.value.trim())
  })
  const status = h('p', { class: 'spoken-status', role: 'status' })
  const hits = h('ul', { class: 'transcript-hits', 'aria-label': 'Where it is said' })
  const section = h('section', { class: 'spoken' }, form, status, hits)
  if (said === '') return section
  void attempt(async () => {
    const answer = await session.client.request<{ items: TranscriptHit[] }>('GET', `/v2/search/transcripts?limit=50&q=${encodeURIComponent(said)}`)
    status.textContent = answer.items.length === 0 ? 'Nobody says that in your videos.' : `Said ${answer.items.length === 50 ? '50 times or more' : `${answer.items.length} time${answer.items.length === 1 ? '' : 's'}`}.`
    for (const hit of answer.items) {
      const href = `#/assets/${encodeURIComponent(hit.asset_id)}?t=${(hit.start_ms / 1000).toFixed(3)}`
      hits.append(h('li', {}, h('a', { href }, h('span', { class: 'at' }, `${at(hit.start_ms)} `), ...highlighted(hit.highlight)),
        h('span', { class: 'where' }, ` ${hit.asset_id} · ${hit.language}`)))
    }
  })
  return section
}
