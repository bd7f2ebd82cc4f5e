import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { amqpVhost, readQueueMessages } from '../../src/indexer/index.ts'
import { INDEX_QUEUE } from '../../src/outbox/index.ts'

// The pending count is read from the index queue of the virtual host AMQP_URL names, as RabbitMQ's
// clients read it, not always from `/`.
describe('the pending count\'s virtual host', () => {
  it('is the first path segment of AMQP_URL, percent-decoded, and / when there is none', () => {
    assert.equal(amqpVhost(undefined), '/')
    assert.equal(amqpVhost('amqp://guest:guest@127.0.0.1:5672'), '/')
    assert.equal(amqpVhost('amqp://guest:guest@127.0.0.1:5672/'), '/')
    assert.equal(amqpVhost('amqp://127.0.0.1/media'), 'media')
    assert.equal(amqpVhost('amqps://127.0.0.1/%2Fmedia'), '/media')
    assert.equal(amqpVhost('amqp://127.0.0.1/%2F'), '/')
  })

  describe('asked of a management API', () => {
    let server: Server
    let base: string
    const asked: string[] = []
    before(async () => {
      // A stand-in for RabbitMQ's management API that records the path it is asked for.
      server = createServer((request, response) => {
        asked.push(request.url ?? '')
        response.setHeader('content-type', 'application/json')
        response.end(JSON.stringify({ name: INDEX_QUEUE, messages: 3 }))
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    })
    after(async () => { await new Promise((resolve) => server.close(resolve)) })

    it('asks for the queue in the endpoint\'s virtual host, encoded as one segment', async () => {
      assert.equal(await readQueueMessages({ url: base, vhost: amqpVhost('amqp://127.0.0.1/media') }), 3)
      assert.equal(await readQueueMessages({ url: base, vhost: '/media' }), 3)
      assert.equal(await readQueueMessages({ url: base }), 3)
      assert.deepEqual(asked, [`/api/queues/media/${INDEX_QUEUE}`, `/api/queues/%2Fmedia/${INDEX_QUEUE}`, `/api/queues/%2F/${INDEX_QUEUE}`])
    })
  })
})
