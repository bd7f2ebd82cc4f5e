// The client of the upload baseline: the file in 8 MiB slices, 4 PUTs in flight, each slice streamed
// from the file through the same transport `reelhouse upload` uses (`fetchWithCa`). Argument: the file,
// the baseline's URL, its certificate file.
import { openAsBlob, readFileSync } from 'node:fs'
import { fetchWithCa } from 'reelhouse/client/node'

const [file, base, certFile] = process.argv.slice(2) as [string, string, string]
const CHUNK = 8 * 1024 * 1024
const send = fetchWithCa({ ca: readFileSync(certFile) })
const blob = await openAsBlob(file)
let next = 0
async function sender (): Promise<void> {
  for (let offset = next * CHUNK; offset < blob.size; offset = next * CHUNK) {
    next++
    const answer = await send(`${base}/${offset}`, { method: 'PUT', body: blob.slice(offset, offset + CHUNK), headers: { 'content-type': 'application/octet-stream' } })
    if (answer.status !== 200) throw new Error(`PUT at ${offset}: ${answer.status}`)
    await answer.arrayBuffer()
  }
}
await Promise.all([sender(), sender(), sender(), sender()])
const done = await (await send(`${base}/done`)).json() as { size: number }
if (done.size !== blob.size) throw new Error(`the baseline holds ${done.size} bytes of ${blob.size}`)
