/**
 * Writes a tiny MaxMind DB (IPv4, 24-bit records) mapping CIDR blocks to countries, so the GeoIP path
 * runs through the real `maxmind` reader without shipping a GeoLite2 file.
 * Format: https://maxmind.github.io/MaxMind-DB/
 */
type Value = string | number | bigint | Value[] | { [key: string]: Value }

function typed (type: number, size: number): Buffer {
  // Types above 7 are "extended": type 0 in the control byte, then type − 7 in the next byte.
  return type <= 7 ? Buffer.from([(type << 5) | size]) : Buffer.from([size, type - 7])
}

function uint (value: number | bigint, type: number): Buffer {
  let hex = value.toString(16)
  if (value === 0 || value === 0n) hex = ''
  if (hex.length % 2 === 1) hex = '0' + hex
  const bytes = Buffer.from(hex, 'hex')
  return Buffer.concat([typed(type, bytes.length), bytes])
}

function encode (value: Value, hint?: 'uint16' | 'uint32' | 'uint64'): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value)
    return Buffer.concat([typed(2, bytes.length), bytes])
  }
  if (typeof value === 'number' || typeof value === 'bigint') return uint(value, hint === 'uint16' ? 5 : hint === 'uint64' ? 9 : 6)
  if (Array.isArray(value)) return Buffer.concat([typed(11, value.length), ...value.map((v) => encode(v))])
  const entries = Object.entries(value)
  return Buffer.concat([typed(7, entries.length), ...entries.flatMap(([k, v]) => [encode(k), encode(v, UINT_KEYS[k])])])
}

const UINT_KEYS: Record<string, 'uint16' | 'uint32' | 'uint64'> = {
  node_count: 'uint32', record_size: 'uint16', ip_version: 'uint16', binary_format_major_version: 'uint16', binary_format_minor_version: 'uint16', build_epoch: 'uint64'
}

type Record24 = { node: number } | { data: number } | null

export function countryMmdb (blocks: Array<{ cidr: string, country: string }>): Buffer {
  const nodes: Array<[Record24, Record24]> = [[null, null]]
  const data: Buffer[] = []
  const offsets = new Map<string, number>()
  let dataSize = 0
  for (const { cidr, country } of blocks) {
    if (!offsets.has(country)) {
      const bytes = encode({ country: { iso_code: country } })
      offsets.set(country, dataSize)
      data.push(bytes)
      dataSize += bytes.length
    }
    const [ip, len] = cidr.split('/')
    const bits = ip.split('.').reduce((acc, octet) => (acc << 8n) | BigInt(octet), 0n)
    let node = 0
    for (let i = 0; i < Number(len); i++) {
      const bit = Number((bits >> BigInt(31 - i)) & 1n)
      if (i === Number(len) - 1) { nodes[node][bit] = { data: offsets.get(country) ?? 0 }; break }
      const next = nodes[node][bit]
      if (next !== null && 'node' in next) { node = next.node; continue }
      nodes.push([null, null])
      nodes[node][bit] = { node: nodes.length - 1 }
      node = nodes.length - 1
    }
  }
  const count = nodes.length
  const value = (r: Record24): number => r === null ? count : 'node' in r ? r.node : count + 16 + r.data
  const tree = Buffer.alloc(count * 6)
  nodes.forEach(([left, right], i) => { tree.writeUIntBE(value(left), i * 6, 3); tree.writeUIntBE(value(right), i * 6 + 3, 3) })
  const metadata = encode({
    node_count: count, record_size: 24, ip_version: 4, database_type: 'Test-Country', languages: ['en'],
    binary_format_major_version: 2, binary_format_minor_version: 0, build_epoch: 1_700_000_000n, description: { en: 'test' }
  })
  return Buffer.concat([tree, Buffer.alloc(16), ...data, Buffer.from([0xab, 0xcd, 0xef]), Buffer.from('MaxMind.com'), metadata])
}
