import assert from 'node:assert/strict'
import { connect } from 'node:net'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { buildTestApp, type TestApp } from '../support/app.ts'

// Requests whose HTTP framing cannot be trusted, sent as raw bytes over loopback: each gets our error
// format with a request id and `Connection: close`, and the server then closes the socket.

interface RawAnswer { status: number, headers: Map<string, string>, body: string }

/** Writes `bytes`, reads until the server closes the socket, and splits the answers. */
async function exchange (port: number, bytes: string): Promise<{ answers: RawAnswer[], closed: boolean }> {
  return await new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => { resolve({ answers: parseAnswers(Buffer.concat(chunks).toString('utf8')), closed: true }) })
    socket.end(bytes)
  })
}

function parseAnswers (text: string): RawAnswer[] {
  const answers: RawAnswer[] = []
  let rest = text
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n')
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n')
    const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
    const length = Number(headers.get('content-length') ?? 0)
    const body = Buffer.from(rest.slice(end + 4), 'utf8').subarray(0, length).toString('utf8')
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body })
    rest = Buffer.from(rest.slice(end + 4), 'utf8').subarray(length).toString('utf8')
  }
  return answers
}

const ATTACKS: Array<{ name: string, bytes: string }> = [
  { name: 'both Content-Length and Transfer-Encoding', bytes: 'POST /v2/labels HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n' },
  { name: 'two different Content-Lengths', bytes: 'POST /v2/labels HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x' },
  { name: 'a negative Content-Length', bytes: 'POST /v2/labels HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n{}' },
  { name: 'a Transfer-Encoding that is not chunked last', bytes: 'POST /v2/labels HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n' },
  { name: 'a control character in the request line', bytes: 'GET /he\u0001alth HTTP/1.1\r\nHost: a\r\n\r\n' },
  { name: 'a header without a colon', bytes: 'GET /health HTTP/1.1\r\nHost: a\r\nbroken header\r\n\r\n' }
]

function assertOurRefusal (answer: RawAnswer | undefined, what: string): void {
  assert.ok(answer !== undefined, `${what}: no answer`)
  assert.equal(answer.status, 400, `${what}: ${answer.body}`)
  assert.equal(answer.headers.get('connection'), 'close', what)
  const body = JSON.parse(answer.body)
  assert.equal(body.code, 'bad_request', what)
  assert.equal(body.status, 400, what)
  assert.equal(typeof body.message, 'string', what)
  assert.equal(body.request_id, answer.headers.get('x-request-id'), what)
}

for (const variant of ['api', 'cdn'] as const) {
  describe(`malformed framing on the ${variant} listener`, () => {
    let t: TestApp
    let port: number
    before(async () => {
      t = await buildTestApp('sqlite', {}, variant)
      await t.app.listen({ port: 0, host: '127.0.0.1' })
      port = (t.app.server.address() as AddressInfo).port
    })
    after(async () => { await t.close() })

    for (const attack of ATTACKS) {
      it(`answers ${attack.name} in our format with Connection: close, then closes`, async () => {
        const { answers, closed } = await exchange(port, attack.bytes)
        assert.equal(answers.length, 1, JSON.stringify(answers))
        assertOurRefusal(answers[0], attack.name)
        assert.ok(closed)
      })
    }

    it('serves a request whose Content-Length is shorter than its body, then refuses the leftover bytes with Connection: close', async () => {
      const { answers } = await exchange(port, 'GET /health HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}leftover bytes\r\n\r\n')
      assert.equal(answers.length, 2, JSON.stringify(answers))
      assert.equal(answers[0]?.status, 200)
      assertOurRefusal(answers[1], 'the leftover bytes')
    })

    it('keeps serving well-formed requests on other connections', async () => {
      const { answers } = await exchange(port, 'GET /health HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n')
      assert.equal(answers[0]?.status, 200)
    })
  })
}
