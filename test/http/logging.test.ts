import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { PassThrough } from 'node:stream'
import Fastify from 'fastify'
import { ConfigError, loadConfig } from '../../src/config/index.ts'
import { createLogger, httpLogging, resolveLogFormat } from '../../src/http/logging.ts'

/** Everything written to a stream, as lines. */
function collector (): { stream: PassThrough, lines: () => string[] } {
  const stream = new PassThrough()
  let text = ''
  stream.on('data', (chunk: Buffer) => { text += chunk.toString() })
  return { stream, lines: () => text.split('\n').filter((line) => line !== '') }
}

const SECRETS = ['S3CR3T-top', 'S3CR3T-nested', 'KEY-in-url', 'SIG-in-url']

for (const format of ['json', 'pretty'] as const) {
  describe(`logs in the ${format} format`, () => {
    it('never show a secret field, nor the api_key or signature of a URL', () => {
      const out = collector()
      const log = createLogger({ logLevel: 'info', logFormat: format }, { output: out.stream })
      log.info({ secret: SECRETS[0], user: { name: 'Ana', secret: SECRETS[1] }, req: { method: 'GET', url: `/v2/labels?api_key=${SECRETS[2] as string}&signature=${SECRETS[3] as string}&limit=2` } }, 'a line with secrets')
      const text = out.lines().join('\n')
      assert.match(text, /a line with secrets/)
      assert.match(text, /\[redacted\]/)
      if (format === 'json') assert.match(text, /limit=2/)
      for (const secret of SECRETS) assert.ok(!text.includes(secret), `${secret} leaked: ${text}`)
    })

    it('write one line per answered request, when it is answered', async () => {
      const out = collector()
      const app = Fastify({ ...httpLogging({ logLevel: 'info', logFormat: format }, out.stream), genReqId: () => 'request-under-test' })
      app.get('/v2/things', async () => ({ ok: true }))
      try {
        const res = await app.inject({ method: 'GET', url: `/v2/things?api_key=${SECRETS[2] as string}&expires=1&signature=${SECRETS[3] as string}` })
        assert.equal(res.statusCode, 200)
        const lines = out.lines().filter((line) => line.includes('request-under-test'))
        assert.equal(lines.length, 1, lines.join('\n'))
        const line = lines[0] as string
        if (format === 'json') {
          const entry = JSON.parse(line) as { msg: string, req: { method: string, url: string }, res: { statusCode: number }, responseTime: number, reqId: string }
          assert.equal(entry.msg, 'request completed')
          assert.deepEqual([entry.req.method, entry.req.url, entry.res.statusCode], ['GET', '/v2/things?api_key=[redacted]&expires=1&signature=[redacted]', 200])
          assert.equal(typeof entry.responseTime, 'number')
          assert.equal(entry.reqId, 'request-under-test')
        } else {
          assert.match(line, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/v2\/things\?api_key=\[redacted\]&expires=1&signature=\[redacted\] 200 \d+\.\d ms request-under-test$/)
        }
        for (const secret of SECRETS) assert.ok(!out.lines().join('\n').includes(secret))
      } finally {
        await app.close()
      }
    })
  })
}

describe('LOG_FORMAT', () => {
  it('is pretty on a terminal and JSON otherwise unless set', () => {
    assert.equal(resolveLogFormat('auto', true), 'pretty')
    assert.equal(resolveLogFormat('auto', false), 'json')
    assert.equal(resolveLogFormat('json', true), 'json')
    assert.equal(resolveLogFormat('pretty', false), 'pretty')
    assert.equal(loadConfig({ REELHOUSE_DATA_DIR: '/tmp/unused' }).logFormat, 'auto')
    assert.equal(loadConfig({ REELHOUSE_DATA_DIR: '/tmp/unused', LOG_FORMAT: 'json' }).logFormat, 'json')
  })

  it('refuses any other value, naming the variable', () => {
    assert.throws(() => loadConfig({ REELHOUSE_DATA_DIR: '/tmp/unused', LOG_FORMAT: 'yaml' }), (error: unknown) => error instanceof ConfigError && /LOG_FORMAT/.test(error.message))
  })
})
