import { BlockList, isIP } from 'node:net'
import type { TrustProxy } from '../config/index.ts'

/**
 * Fastify's `trustProxy` from TRUST_PROXY: nothing trusted, the nearest `hops` proxies, or the proxies
 * whose addresses fall in the listed blocks. `request.ip` and `request.protocol` then read
 * `X-Forwarded-For` and `X-Forwarded-Proto` only as far as those proxies vouch for them.
 */
export function trustedProxies (setting: TrustProxy): false | ((address: string, hop: number) => boolean) {
  if (setting === false) return false
  if (typeof setting === 'number') return (_address, hop) => hop < setting
  const blocks = new BlockList()
  for (const entry of setting) {
    const [address, bits] = entry.split('/') as [string, string | undefined]
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4'
    if (bits === undefined) blocks.addAddress(address, type)
    else blocks.addSubnet(address, Number(bits), type)
  }
  return (address) => {
    const family = isIP(address)
    if (family === 0) return false
    // An IPv4 peer on a dual-stack socket shows as ::ffff:a.b.c.d.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
    if (mapped !== null) return blocks.check(mapped[1] as string, 'ipv4')
    return blocks.check(address, family === 6 ? 'ipv6' : 'ipv4')
  }
}
