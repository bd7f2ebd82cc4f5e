import { BlockList, isIP } from 'node:net'

/**
 * Which addresses a webhook may be delivered to (docs/webhooks.md, "Targets"): globally routable unicast
 * only. Each refused range has the reason a delivery error shows; the error never shows the address itself.
 */
const V4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'an unspecified (0.0.0.0/8) address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a carrier-grade NAT (100.64.0.0/10) address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'a reserved address'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.88.99.0', 24, 'a 6to4 relay address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address']
]

/** Checked in order: the first match names the reason. Everything outside 2000::/3 is refused after these. */
const V6: Array<[string, number, string]> = [
  ['::', 128, 'an unspecified address'],
  ['::1', 128, 'a loopback address'],
  ['::ffff:0:0', 96, 'an IPv4-mapped address'],
  ['::', 96, 'an IPv4-compatible address'],
  ['64:ff9b::', 96, 'a NAT64 address'],
  ['64:ff9b:1::', 48, 'a NAT64 address'],
  ['100::', 64, 'a discard-only address'],
  ['fc00::', 7, 'a unique-local address'],
  ['fe80::', 10, 'a link-local address'],
  ['ff00::', 8, 'a multicast address'],
  ['2001::', 32, 'a Teredo address'],
  ['2001:2::', 48, 'a benchmarking address'],
  ['2001:10::', 28, 'a reserved address'],
  ['2001:20::', 28, 'a reserved address'],
  ['2001:db8::', 32, 'a documentation address'],
  ['2002::', 16, 'a 6to4 address'],
  ['3fff::', 20, 'a documentation address']
]

interface Range { list: BlockList, reason: string }

function ranges (rows: Array<[string, number, string]>, family: 'ipv4' | 'ipv6'): Range[] {
  return rows.map(([network, prefix, reason]) => {
    const list = new BlockList()
    list.addSubnet(network, prefix, family)
    return { list, reason }
  })
}

const V4_RANGES = ranges(V4, 'ipv4')
const V6_RANGES = ranges(V6, 'ipv6')
const GLOBAL_UNICAST_V6 = ranges([['2000::', 3, '']], 'ipv6')[0] as Range

/**
 * Why `address` (an IP literal) may not be a webhook target, or undefined when it is globally routable
 * unicast. Not an IP literal: refused as such.
 * @example forbiddenReason('169.254.169.254') // 'a link-local address'
 */
export function forbiddenReason (address: string): string | undefined {
  const family = isIP(address)
  if (family === 4) return V4_RANGES.find((range) => range.list.check(address, 'ipv4'))?.reason
  if (family === 6) {
    const lower = address.toLowerCase()
    const match = V6_RANGES.find((range) => range.list.check(lower, 'ipv6'))
    if (match !== undefined) return match.reason
    return GLOBAL_UNICAST_V6.list.check(lower, 'ipv6') ? undefined : 'a reserved address'
  }
  return 'not an IP address'
}
