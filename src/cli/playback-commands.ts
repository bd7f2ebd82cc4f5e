import type { Command } from 'commander'
import { UsageError } from './cli-error.ts'
import { connect } from './connection.ts'
import { parseExpires } from './expires.ts'
import { resourceCommand, type OutputFlags } from './resource-commands.ts'
import { wantsJson } from './table.ts'

interface IssuedToken { token: string, kid: string, expires_at: string }

/**
 * `reelhouse playback-token EMBED_CODE --expires 1h`: a playback token for a signed asset, signed with the
 * account's managed key (docs/playback.md), and the master URL that plays with it.
 */
export function registerPlaybackCommands (program: Command): void {
  resourceCommand(program, 'playback-token', 'issue a playback token for a signed asset; prints the token and the master URL that plays with it', [
    'reelhouse playback-token 3f2a9c0e… --expires 1h', 'reelhouse playback-token 3f2a9c0e… --aud s --json | jq -r .token'
  ])
    .argument('<embed_code>', 'the asset\'s embed code')
    .option('--expires <duration>', 'how long it plays: 90s, 15m, 1h, up to 24h', '1h')
    .option('--aud <aud>', 'v video (default), t thumbnails, s the storyboard', 'v')
    .action(async (embedCode: string, flags: OutputFlags & { expires: string, aud: string }) => {
      const now = Date.now()
      const expiresIn = parseExpires(flags.expires, now) - Math.floor(now / 1000)
      if (expiresIn < 1 || expiresIn > 86_400) throw new UsageError(`--expires must be between 1s and 24h, not ${flags.expires}`)
      const { client } = connect(flags)
      const path = `/v2/assets/${encodeURIComponent(embedCode)}`
      const issued = await client.request<IssuedToken>('POST', `${path}/playback_tokens`, { body: { expires_in: expiresIn, aud: flags.aud } })
      const asset = await client.request<{ stream_urls?: { iphone?: string | null } | null }>('GET', path)
      const master = asset.stream_urls?.iphone
      const url = typeof master === 'string' ? `${master}?token=${issued.token}` : null
      if (wantsJson(flags)) {
        console.log(JSON.stringify({ ...issued, url }, null, 2))
        return
      }
      console.log(issued.token)
      if (url !== null) console.log(url)
    })
}
