import type { Asset } from 'reelhouse/client'
import { h } from './dom.ts'
import { playlistOf } from './player.ts'
import type { Session } from './shell.ts'

/**
 * Signed playback (docs/playback.md): the asset's own policy, else its publishing rule's. The field
 * appears on assets and rules with signed playback; without it, playback is public.
 */
export async function isSigned (session: Session, asset: Asset): Promise<boolean> {
  const own = (asset as { playback_policy?: string | null }).playback_policy
  if (own === 'signed' || own === 'public') return own === 'signed'
  if (asset.publishing_rule_id === null || asset.publishing_rule_id === undefined || !session.can.rules) return false
  const rule = await session.client.request<{ playback_policy?: string }>('GET', `/v2/publishing_rules/${encodeURIComponent(asset.publishing_rule_id)}`)
  return rule.playback_policy === 'signed'
}

/** How long a token the console asks for its own user lives: long enough to watch, short enough to leak little. */
const CONSOLE_TOKEN_SECONDS = 3600

/**
 * A playback token for the console's own user (`POST /v2/assets/:id/playback_tokens`, signed by the key the
 * service holds for the account), and the master URL carrying it.
 */
export async function signedMaster (session: Session, asset: Asset, master: string): Promise<string> {
  const issued = await session.client.request<{ token: string }>('POST', `/v2/assets/${encodeURIComponent(asset.embed_code)}/playback_tokens`, { body: { expires_in: CONSOLE_TOKEN_SECONDS, aud: 'v' } })
  return `${master}${master.includes('?') ? '&' : '?'}token=${encodeURIComponent(issued.token)}`
}

/**
 * A page that plays the asset anywhere: hls.js where Media Source Extensions exist, else the browser's own
 * HLS (Safari), with the master URL. For a signed asset the URL takes `?token=` from the site's backend.
 */
export function embedSnippet (master: string, signed: boolean): string {
  const source = signed ? `'${master}?token=' + TOKEN_FROM_YOUR_BACKEND` : `'${master}'`
  return [
    '<!doctype html>',
    '<meta charset="utf-8">',
    '<video id="player" controls playsinline style="width: 100%; max-width: 960px"></video>',
    '<script src="https://cdn.jsdelivr.net/npm/hls.js@1/dist/hls.min.js"></script>',
    '<script>',
    '  const video = document.getElementById(\'player\')',
    `  const src = ${source}`,
    '  if (window.Hls && Hls.isSupported()) {',
    '    const hls = new Hls()',
    '    hls.loadSource(src)',
    '    hls.attachMedia(video)',
    '  } else {',
    '    video.src = src',
    '  }',
    '</script>'
  ].join('\n')
}

/** The embed card of an asset that has a master playlist: the snippet, and for a signed asset how to add its token. */
export function embedSection (asset: Asset, signed: boolean): HTMLElement | null {
  const master = playlistOf(asset)
  if (master === undefined || asset.status === 'error') return null
  const snippet = embedSnippet(master, signed)
  const copy = h('button', { type: 'button', class: 'secondary' }, 'Copy')
  copy.addEventListener('click', () => { void navigator.clipboard?.writeText(snippet).then(() => { copy.textContent = 'Copied' }) })
  return h('section', { class: 'card', 'aria-labelledby': 'embed-title' },
    h('h2', { id: 'embed-title' }, 'Embed'),
    signed
      ? h('p', { id: 'embed-signed' }, 'This asset plays only with a playback token. Your site\'s backend signs one with a playback key (',
        h('code', {}, 'signPlaybackToken'), ' in the TypeScript client, or ', h('code', {}, 'reelhouse playback-token'),
        ') and puts it in place of TOKEN_FROM_YOUR_BACKEND: the master URL then ends with ', h('code', {}, '?token='), '. Never put a playback key in a page.')
      : h('p', {}, 'A page that plays this asset: hls.js where the browser needs it, the browser\'s own HLS elsewhere (Safari).'),
    h('pre', { class: 'embed-snippet' }, h('code', { id: 'embed-code' }, snippet)),
    copy)
}
