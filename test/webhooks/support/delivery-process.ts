/**
 * A delivering worker in a process of its own, for the kill -9 test: the webhook delivery of the worker
 * role on the database named by DATABASE_URL (and DATABASE_SCHEMA), with the master key REELHOUSE_MASTER_KEY.
 * Prints `ready` once it runs.
 */
import { openDatabase } from '../../../src/db/index.ts'
import { systemClock } from '../../../src/lib/clock.ts'
import { SecretBox } from '../../../src/secrets/index.ts'
import { startWebhookDelivery } from '../../../src/webhooks/index.ts'

const url = process.env.DATABASE_URL as string
const schema = process.env.DATABASE_SCHEMA
const database = await openDatabase(url, schema === undefined || schema === '' ? {} : { schema, poolSize: 5 })
startWebhookDelivery({ database, secrets: new SecretBox(Buffer.from(process.env.REELHOUSE_MASTER_KEY as string, 'hex')), clock: systemClock }, {
  policy: { allowHttp: true, allowPrivate: true },
  leaseMs: Number(process.env.LEASE_MS ?? 1500),
  concurrency: 16,
  pollMs: 20
})
process.stdout.write('ready\n')
