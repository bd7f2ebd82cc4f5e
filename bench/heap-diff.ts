// `node --max-old-space-size=6000 --import tsx bench/heap-diff.ts <earlier.heapsnapshot> <later.heapsnapshot>`: what
// grew between two heap snapshots of one process (V8 keeps an object's id across snapshots of one process). Every
// object of the later snapshot whose id the earlier one lacks is charged to the first object that existed before and
// holds it: a breadth-first walk from the roots over strong edges, each new object taking the owner of the object it
// was reached from (that object itself when it is an old one). Prints the owners holding the most, grouped by the
// owner's kind and the last steps of its path from the roots; then the net change by kind (type and constructor)
// between the two snapshots, whichever objects make it up. docs/benchmarks.md, "Soak".
import { readFileSync } from 'node:fs'

interface Snapshot {
  snapshot: { meta: { node_fields: string[], node_types: [string[]], edge_fields: string[], edge_types: [string[]] }, node_count: number }
  nodes: number[]
  edges: number[]
  strings: string[]
}

const [earlierPath, laterPath] = process.argv.slice(2)
if (laterPath === undefined) throw new Error('usage: heap-diff.ts <earlier.heapsnapshot> <later.heapsnapshot>')
const load = (path: string): Snapshot => JSON.parse(readFileSync(path, 'utf8')) as Snapshot

/** Bytes and objects by kind (type, and the constructor's name for objects, closures and the like) in one snapshot. */
function byKind (snap: Snapshot): Map<string, { count: number, bytes: number }> {
  const fields = snap.snapshot.meta.node_fields
  const [type, name, size] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f))
  const types = snap.snapshot.meta.node_types[0]
  const kinds = new Map<string, { count: number, bytes: number }>()
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const t = types[snap.nodes[i + type]]
    const key = ['object', 'closure', 'native', 'hidden', 'code', 'synthetic'].includes(t) ? `${t} ${snap.strings[snap.nodes[i + name]].slice(0, 60)}` : t
    const k = kinds.get(key) ?? { count: 0, bytes: 0 }
    k.count++
    k.bytes += snap.nodes[i + size]
    kinds.set(key, k)
  }
  return kinds
}

const earlier = load(earlierPath)
const idAt = earlier.snapshot.meta.node_fields.indexOf('id')
const before = new Set<number>()
for (let i = idAt; i < earlier.nodes.length; i += earlier.snapshot.meta.node_fields.length) before.add(earlier.nodes[i])
const kindsBefore = byKind(earlier)
earlier.nodes = []

const s = load(laterPath)
const nf = s.snapshot.meta.node_fields
const ef = s.snapshot.meta.edge_fields
const N = nf.length
const E = ef.length
const [TYPE, NAME, ID, SIZE, EDGES] = ['type', 'name', 'id', 'self_size', 'edge_count'].map((f) => nf.indexOf(f))
const [ETYPE, ENAME, ETO] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f))
const nodeTypes = s.snapshot.meta.node_types[0]
const edgeTypes = s.snapshot.meta.edge_types[0]
const count = s.nodes.length / N
const firstEdge = new Uint32Array(count + 1)
for (let n = 0, e = 0; n < count; n++) { firstEdge[n] = e; e += s.nodes[n * N + EDGES] * E }
firstEdge[count] = s.edges.length

const isNew = (n: number): boolean => !before.has(s.nodes[n * N + ID])
const describe = (n: number): string => {
  const type = nodeTypes[s.nodes[n * N + TYPE]]
  const name = s.strings[s.nodes[n * N + NAME]]
  return type === 'string' || type === 'concatenated string' || type === 'sliced string' ? `${type} "${name.slice(0, 40)}"` : `${type} ${name.slice(0, 60)}`
}
const edgeName = (e: number): string => {
  const type = edgeTypes[s.edges[e + ETYPE]]
  const v = s.edges[e + ENAME]
  return type === 'element' || type === 'hidden' ? `[${v}]` : s.strings[v]
}

// Breadth-first from the root (node 0) over strong edges: each node's parent edge, and each new node's owner.
const parentEdge = new Int32Array(count).fill(-1)
const parentNode = new Int32Array(count).fill(-1)
const owner = new Int32Array(count).fill(-1)
const seen = new Uint8Array(count)
const queue = new Int32Array(count)
let head = 0
let tail = 0
queue[tail++] = 0
seen[0] = 1
while (head < tail) {
  const n = queue[head++]
  for (let e = firstEdge[n]; e < firstEdge[n + 1]; e += E) {
    const type = edgeTypes[s.edges[e + ETYPE]]
    if (type === 'weak' || type === 'shortcut') continue
    const to = s.edges[e + ETO] / N
    if (seen[to] === 1) continue
    seen[to] = 1
    parentEdge[to] = e
    parentNode[to] = n
    if (isNew(to)) owner[to] = isNew(n) ? owner[n] : n
    queue[tail++] = to
  }
}

const path = (n: number, steps: number): string => {
  const parts: string[] = []
  for (let at = n; parentNode[at] > 0 && parts.length < steps; at = parentNode[at]) parts.unshift(`${describe(parentNode[at]).split(' ').slice(0, 2).join(' ')}.${edgeName(parentEdge[at])}`)
  return parts.join(' → ')
}

let newCount = 0
let newBytes = 0
let unreached = 0
const byOwner = new Map<number, { count: number, bytes: number }>()
for (let n = 0; n < count; n++) {
  if (!isNew(n)) continue
  const size = s.nodes[n * N + SIZE]
  newCount++
  newBytes += size
  if (owner[n] === -1) { unreached += size; continue }
  const o = byOwner.get(owner[n]) ?? { count: 0, bytes: 0 }
  o.count++
  o.bytes += size
  byOwner.set(owner[n], o)
}
const groups = new Map<string, { owners: number, count: number, bytes: number, example: number }>()
for (const [n, o] of byOwner) {
  const key = `${describe(n).replace(/"[^"]*"/, '"…"')}  via ${path(n, 4)}`
  const g = groups.get(key) ?? { owners: 0, count: 0, bytes: 0, example: n }
  g.owners++
  g.count += o.count
  g.bytes += o.bytes
  groups.set(key, g)
}
console.log(`${newCount} objects new in the later snapshot, ${(newBytes / 1e6).toFixed(1)} MB (${(unreached / 1e6).toFixed(1)} MB reached only through weak edges)`)
for (const [key, g] of [...groups].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, Number(process.env.TOP ?? 25))) {
  console.log(`${(g.bytes / 1e6).toFixed(2).padStart(7)} MB ${String(g.count).padStart(8)} objects  ${String(g.owners).padStart(5)} owners  ${key}`)
}

// The net change by kind: what the later snapshot holds more (or less) of, whichever objects they are.
const kindsAfter = byKind(s)
const sum = (kinds: Map<string, { bytes: number }>): number => [...kinds.values()].reduce((total, k) => total + k.bytes, 0)
console.log(`\nlive: ${(sum(kindsBefore) / 1e6).toFixed(2)} MB → ${(sum(kindsAfter) / 1e6).toFixed(2)} MB; the largest net changes by kind:`)
const net = [...new Set([...kindsBefore.keys(), ...kindsAfter.keys()])].map((key) => {
  const a = kindsBefore.get(key) ?? { count: 0, bytes: 0 }
  const b = kindsAfter.get(key) ?? { count: 0, bytes: 0 }
  return { key, bytes: b.bytes - a.bytes, count: b.count - a.count }
})
for (const k of net.sort((a, b) => Math.abs(b.bytes) - Math.abs(a.bytes)).slice(0, Number(process.env.TOP ?? 25))) {
  console.log(`${(k.bytes / 1e6).toFixed(3).padStart(8)} MB ${String(k.count).padStart(8)} objects  ${k.key}`)
}
