import assert from 'node:assert/strict'
import { inspect } from 'node:util'
import { describe, it } from 'node:test'
import { ConfigError } from '../../../src/config/index.ts'
import { MediaStoreUrlError, openMediaStore, parseMediaStoreUrl, redactStoreUrl } from '../../../src/media/store/index.ts'

const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYzEXAMPLE'
const ENCODED = encodeURIComponent(SECRET)
const dataDir = '/srv/reelhouse'
const noEnv = { dataDir, env: {} }

describe('MEDIA_STORE_URL', () => {
  it('means files in <dataDir>/media when unset or blank', () => {
    assert.deepEqual(parseMediaStoreUrl(undefined, noEnv), { kind: 'file', root: '/srv/reelhouse/media' })
    assert.deepEqual(parseMediaStoreUrl('  ', noEnv), { kind: 'file', root: '/srv/reelhouse/media' })
  })

  it('takes a file: URL with an absolute folder, percent-decoded', () => {
    assert.deepEqual(parseMediaStoreUrl('file:/var/media', noEnv), { kind: 'file', root: '/var/media' })
    assert.deepEqual(parseMediaStoreUrl('file:///var/my%20media', noEnv), { kind: 'file', root: '/var/my media' })
  })

  it('reads an S3 URL: HTTPS for s3://, plain HTTP for s3+http://, region and prefix optional', () => {
    const aws = parseMediaStoreUrl(`s3://AKIDEXAMPLE:${ENCODED}@s3.eu-west-1.amazonaws.com/media-bucket?region=eu-west-1`, noEnv)
    assert.equal(aws.kind, 's3')
    if (aws.kind !== 's3') return
    assert.equal(aws.endpoint, 'https://s3.eu-west-1.amazonaws.com')
    assert.equal(aws.bucket, 'media-bucket')
    assert.equal(aws.prefix, '')
    assert.equal(aws.region, 'eu-west-1')
    assert.equal(aws.accessKeyId, 'AKIDEXAMPLE')
    assert.equal(aws.secretAccessKey, SECRET)
    assert.equal(aws.credentialsFrom, 'url')
    assert.equal(aws.redactedUrl, 's3://***@s3.eu-west-1.amazonaws.com/media-bucket?region=eu-west-1')

    const rgw = parseMediaStoreUrl('s3+http://AK:SK@127.0.0.1:7480/reelhouse/tenant-a/media/', noEnv)
    assert.ok(rgw.kind === 's3')
    assert.equal(rgw.endpoint, 'http://127.0.0.1:7480')
    assert.equal(rgw.bucket, 'reelhouse')
    assert.equal(rgw.prefix, 'tenant-a/media/')
    assert.equal(rgw.region, 'us-east-1')

    for (const [url, endpoint] of [['http://AK:SK@minio.local:9000/b-1', 'http://minio.local:9000'], ['https://AK:SK@store.example/b-1', 'https://store.example'], ['s3+https://AK:SK@store.example:8443/b-1', 'https://store.example:8443']]) {
      const location = parseMediaStoreUrl(url, noEnv)
      assert.ok(location.kind === 's3' && location.endpoint === endpoint && location.bucket === 'b-1', url)
    }
  })

  it('falls back to AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN when the URL has no credentials', () => {
    const location = parseMediaStoreUrl('s3://s3.amazonaws.com/media', {
      dataDir, env: { AWS_ACCESS_KEY_ID: 'AKENV', AWS_SECRET_ACCESS_KEY: SECRET, AWS_SESSION_TOKEN: 'token' }
    })
    assert.ok(location.kind === 's3')
    assert.equal(location.accessKeyId, 'AKENV')
    assert.equal(location.secretAccessKey, SECRET)
    assert.equal(location.sessionToken, 'token')
    assert.equal(location.credentialsFrom, 'environment')
  })

  it('never shows the secret when a location is logged or serialised', () => {
    const location = parseMediaStoreUrl(`s3://AK:${ENCODED}@host.example/bucket`, noEnv)
    for (const shown of [JSON.stringify(location), inspect(location, { depth: 5 }), String(Object.values(location))]) {
      assert.ok(!shown.includes(SECRET) && !shown.includes(ENCODED), shown)
    }
  })

  const bad: Array<[string, string]> = [
    ['ftp://AK:SK@host/bucket', 'unset (files in the data directory), file:/absolute/folder, or s3://ACCESS_KEY:SECRET@host[:port]/bucket[/prefix][?region=…] (s3+http:// for plain HTTP) (got "ftp://***@host/bucket")'],
    ['not a url', 'unset (files in the data directory), file:/absolute/folder, or s3://ACCESS_KEY:SECRET@host[:port]/bucket[/prefix][?region=…] (s3+http:// for plain HTTP) (got "not a url")'],
    ['file:relative/media', 'file: followed by an absolute folder path, e.g. file:/var/lib/reelhouse/media (got "file:relative/media")'],
    ['file://server/share', 'file: followed by an absolute folder path, e.g. file:/var/lib/reelhouse/media (got "file://server/share")'],
    ['s3:///bucket', 'a host is missing'],
    ['s3://AK:SK@host', 'the bucket is missing (got "s3://***@host")'],
    ['s3://AK:SK@host/Bad_Bucket', 'the bucket is 3 to 63 lower-case letters, digits, dots or hyphens (got "s3://***@host/Bad_Bucket")'],
    ['s3://AK:SK@host/ab', 'the bucket is 3 to 63'],
    ['s3://AK:SK@host/bucket/../etc', 'no "." or ".." in the path'],
    ['s3://host/bucket/./x', 'no "." or ".." in the path'],
    ['s3://AK:SK@host/bucket/a b', 'the prefix after the bucket'],
    ['s3://AK:SK@host/bucket?region=eu-west-1&secure=false', 'the only query parameter is region (got secure)'],
    ['s3://AK:SK@host/bucket?region=', 'region is a name like us-east-1'],
    ['s3://AK:SK@host/bucket#x', 'no #fragment'],
    ['s3://AK@host/bucket', 'give both the access key and the secret, or neither (got "s3://***@host/bucket")'],
    ['s3://host/bucket', 'without credentials in the URL, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set (got "s3://host/bucket")']
  ]
  for (const [url, expected] of bad) {
    it(`refuses ${url} with a message naming MEDIA_STORE_URL`, () => {
      assert.throws(() => parseMediaStoreUrl(url, noEnv), (error: unknown) =>
        error instanceof MediaStoreUrlError && error instanceof ConfigError &&
        error.message.startsWith('Invalid configuration: MEDIA_STORE_URL must be ') && error.message.includes(expected))
    })
  }

  // A secret with "/" that was not percent-encoded cuts the URL in odd places; each must fail without
  // quoting any piece of the secret.
  for (const url of [`s3://AK:${SECRET}@host.example/bucket`, 's3://AK:1234/abcd@host/bucket', 's3+http://AK:pa/ss@word@127.0.0.1:7480/bucket']) {
    it(`refuses an unencoded secret without quoting it (${redactStoreUrl(url)})`, () => {
      assert.throws(() => parseMediaStoreUrl(url, noEnv), (error: unknown) => {
        const message = (error as Error).message
        return error instanceof MediaStoreUrlError && /percent-encoded/.test(message) &&
          !['K7MDENG', 'bPxRfi', '1234', 'abcd', 'pa/ss', 'word@'].some((piece) => message.includes(piece))
      })
    })
  }

  it('is refused by openMediaStore before any connection is made', async () => {
    await assert.rejects(openMediaStore('s3://AK:SK@host/B', { dataDir, env: {} }), MediaStoreUrlError)
  })
})

describe('redactStoreUrl', () => {
  it('hides everything between :// and the last @', () => {
    assert.equal(redactStoreUrl('s3://AK:S/E@C@host/b'), 's3://***@host/b')
    assert.equal(redactStoreUrl('s3://host/b'), 's3://host/b')
    assert.equal(redactStoreUrl('AK:secret@host'), '(not shown: it contains "@")')
  })
})
