import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config/index.ts'

describe('configuration', () => {
  it('finds media tools on the process\'s own PATH when the given environment has none (a test\'s, an embedding app\'s)', () => {
    const config = loadConfig({ REELHOUSE_DATA_DIR: '/tmp/reelhouse-config-test' })
    assert.equal(config.mediaTools.PATH, process.env.PATH)
    assert.equal(loadConfig({ REELHOUSE_DATA_DIR: '/tmp/reelhouse-config-test', PATH: '/nowhere' }).mediaTools.PATH, '/nowhere')
  })

  it('has working defaults: SQLite in the data directory, HTTPS on 8443', () => {
    const config = loadConfig({ REELHOUSE_DATA_DIR: '/tmp/rh' })
    assert.equal(config.databaseUrl, 'sqlite:/tmp/rh/reelhouse.db')
    assert.equal(config.apiPort, 8443)
    assert.equal(config.cdnPort, 8080)
    assert.equal(config.indexerPort, 9400)
    assert.equal(config.indexerHost, '127.0.0.1')
    assert.equal(config.creditsPerMinute, 1000)
    assert.equal(config.cdnTtlSeconds, 300)
  })

  it('bounds how long a connection may stall and how long a stop waits, each bound a setting', () => {
    const defaults = loadConfig({ REELHOUSE_DATA_DIR: '/tmp/rh' })
    assert.deepEqual([defaults.requestHeadersTimeoutSeconds, defaults.tlsHandshakeTimeoutSeconds, defaults.shutdownGraceSeconds], [15, 10, 10])
    const set = loadConfig({ REELHOUSE_DATA_DIR: '/tmp/rh', REQUEST_HEADERS_TIMEOUT_SECONDS: '5', TLS_HANDSHAKE_TIMEOUT_SECONDS: '3', SHUTDOWN_GRACE_SECONDS: '0' })
    assert.deepEqual([set.requestHeadersTimeoutSeconds, set.tlsHandshakeTimeoutSeconds, set.shutdownGraceSeconds], [5, 3, 0])
  })

  it('bounds the memory of the embedded engines, each bound a setting', () => {
    const defaults = loadConfig({ REELHOUSE_DATA_DIR: '/tmp/rh' })
    assert.deepEqual([defaults.analyticsMemoryMb, defaults.analyticsThreads, defaults.sqliteCacheKb, defaults.sqliteStatementCache], [128, 2, 2048, 1000])
    const set = loadConfig({ REELHOUSE_DATA_DIR: '/tmp/rh', SQLITE_CACHE_KB: '512', SQLITE_STATEMENT_CACHE: '200' })
    assert.deepEqual([set.sqliteCacheKb, set.sqliteStatementCache], [512, 200])
    assert.throws(() => loadConfig({ SQLITE_STATEMENT_CACHE: '0' }), /SQLITE_STATEMENT_CACHE must be an integer from 1/)
  })

  it('TRUST_PROXY: none by default, a hop count, or proxy addresses; a bare true is one hop, with a warning', () => {
    assert.equal(loadConfig({}).trustProxy, false)
    assert.equal(loadConfig({ TRUST_PROXY: 'false' }).trustProxy, false)
    assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2)
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,2001:db8::/32' }).trustProxy, ['10.0.0.0/8', '192.0.2.7', '2001:db8::/32'])
    assert.deepEqual(loadConfig({ TRUST_PROXY: '2' }).warnings, [])
    const migrated = loadConfig({ TRUST_PROXY: 'true' })
    assert.equal(migrated.trustProxy, 1)
    assert.match(migrated.warnings[0] as string, /TRUST_PROXY=true is read as TRUST_PROXY=1/)
  })

  const bad: Array<[Record<string, string>, string]> = [
    [{ API_PORT: 'https' }, 'Invalid configuration: API_PORT must be an integer from 0 to 65535 (got "https").'],
    [{ API_PORT: '70000' }, 'Invalid configuration: API_PORT must be an integer from 0 to 65535 (got "70000").'],
    [{ TRUST_PROXY: 'maybe' }, 'Invalid configuration: TRUST_PROXY must be false, a hop count from 1 to 32, or a comma-separated list of proxy addresses or CIDR blocks (got "maybe").'],
    [{ TRUST_PROXY: '33' }, 'Invalid configuration: TRUST_PROXY must be false, a hop count from 1 to 32, or a comma-separated list of proxy addresses or CIDR blocks (got "33").'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'Invalid configuration: TRUST_PROXY must be false, a hop count from 1 to 32, or a comma-separated list of proxy addresses or CIDR blocks (got "10.0.0.0/33").'],
    [{ TRUST_PROXY: '10.0.0.0/8,example.com' }, 'Invalid configuration: TRUST_PROXY must be false, a hop count from 1 to 32, or a comma-separated list of proxy addresses or CIDR blocks (got "10.0.0.0/8,example.com").'],
    [{ LOG_LEVEL: 'loud' }, 'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud").'],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid configuration: DATABASE_URL must be a postgres:// URL or sqlite:<file> (got "mysql://x").'],
    [{ REDIS_URL: 'http://x' }, 'Invalid configuration: REDIS_URL must be a URL with scheme redis or rediss (got "http://x").'],
    [{ REELHOUSE_MASTER_KEY: 'short' }, 'Invalid configuration: REELHOUSE_MASTER_KEY must be 64 hexadecimal characters (32 bytes) (got "short").'],
    [{ TLS_CERT: '/x.pem' }, 'Invalid configuration: TLS_KEY must be set together with the other of TLS_CERT/TLS_KEY (got "").'],
    [{ INDEXER_HOST: '0.0.0.0' }, 'Invalid configuration: INDEXER_HOST must be a loopback address unless INDEXER_USER and INDEXER_PASSWORD are set (got "0.0.0.0").'],
    [{ BODY_LIMIT_BYTES: '12' }, 'Invalid configuration: BODY_LIMIT_BYTES must be an integer from 1024 to 1073741824 (got "12").'],
    [{ REQUEST_HEADERS_TIMEOUT_SECONDS: '0' }, 'Invalid configuration: REQUEST_HEADERS_TIMEOUT_SECONDS must be an integer from 1 to 300 (got "0").'],
    [{ TLS_HANDSHAKE_TIMEOUT_SECONDS: '1.5' }, 'Invalid configuration: TLS_HANDSHAKE_TIMEOUT_SECONDS must be an integer from 1 to 300 (got "1.5").'],
    [{ SHUTDOWN_GRACE_SECONDS: '-1' }, 'Invalid configuration: SHUTDOWN_GRACE_SECONDS must be an integer from 0 to 3600 (got "-1").']
  ]
  for (const [env, message] of bad) {
    it(`stops on ${Object.keys(env).join(', ')} with a message naming it`, () => {
      assert.throws(() => loadConfig({ REELHOUSE_DATA_DIR: '/tmp/rh', ...env }), (error: unknown) => error instanceof ConfigError && error.message === message)
    })
  }

  it('allows a non-loopback indexer with basic-auth credentials', () => {
    assert.equal(loadConfig({ INDEXER_HOST: '0.0.0.0', INDEXER_USER: 'u', INDEXER_PASSWORD: 'p' }).indexerHost, '0.0.0.0')
  })
})
