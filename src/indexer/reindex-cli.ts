import type { Config } from '../config/index.ts'
import { openDatabase } from '../db/index.ts'
import { accountExists } from './reindex.ts'
import { runReindexProcedure, type ReindexProgress } from './reindex-procedure.ts'
import { amqpVhost } from './pending-count.ts'
import { openSearchStore } from '../search/index.ts'

export interface ReindexCommandOptions {
  account?: string
  /** The indexing service; default from INDEXER_HOST/INDEXER_PORT (and INDEXER_USER/INDEXER_PASSWORD). */
  indexerUrl?: string
  /** Seconds; 0 waits forever. */
  timeout?: string
  print?: (line: string) => void
}

/** `reelhouse reindex [--account ID]`: the re-index procedure with a progress bar on stderr. */
export async function reindexCommand (config: Config, options: ReindexCommandOptions): Promise<void> {
  const print = options.print ?? console.log
  if (config.amqpUrl !== undefined && config.rabbitmqManagementUrl === undefined) {
    throw new Error('RABBITMQ_MANAGEMENT_URL must be set with AMQP_URL: the pending count is read from the management API')
  }
  // The account is checked before anything is built.
  if (options.account !== undefined) {
    const database = await openDatabase(config.databaseUrl)
    try {
      if (!await accountExists(database.db, options.account)) throw new Error(`account ${options.account} does not exist`)
    } finally {
      await database.close()
    }
  }
  const store = await openSearchStore(config)
  // Imported by the command, not the server that shares this module's barrel.
  const { default: cliProgress } = await import('cli-progress')
  const bar = new cliProgress.SingleBar({
    format: 'reindex |{bar}| {value}/{total} indexed · {pending} pending · {duration_formatted}',
    hideCursor: true
  }, cliProgress.Presets.shades_classic)
  let started = false
  const onProgress = ({ queued, pending }: ReindexProgress): void => {
    const value = pending === undefined ? 0 : Math.max(0, queued - pending)
    if (!started) { bar.start(queued, value, { pending: pending ?? '?' }); started = true }
    bar.update(value, { pending: pending ?? '?' })
  }
  try {
    const result = await runReindexProcedure({
      accountId: options.account,
      store,
      indexer: { url: options.indexerUrl ?? indexerUrlOf(config) },
      management: config.amqpUrl === undefined ? undefined : { url: config.rabbitmqManagementUrl as string, vhost: amqpVhost(config.amqpUrl) },
      timeoutMs: Number(options.timeout ?? 0) * 1000,
      onProgress
    })
    if (started) bar.stop()
    print(`rebuilt and swapped in ${result.rebuilt.length} ${result.rebuilt.length === 1 ? 'index' : 'indices'}; queued ${result.queued} entries; all indexed (0 pending)`)
  } catch (error) {
    if (started) bar.stop()
    throw error
  } finally {
    await store.close()
  }
}

function indexerUrlOf (config: Config): string {
  const host = config.indexerHost === '0.0.0.0' || config.indexerHost === '::' ? '127.0.0.1' : config.indexerHost
  const auth = config.indexerUser === undefined ? '' : `${encodeURIComponent(config.indexerUser)}:${encodeURIComponent(config.indexerPassword ?? '')}@`
  return `http://${auth}${host.includes(':') ? `[${host}]` : host}:${config.indexerPort}`
}
