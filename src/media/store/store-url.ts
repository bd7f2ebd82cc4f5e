import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ConfigError, type AwsCredentialsEnv } from '../../config/index.ts'
import { isValidKey } from './media-keys.ts'

const VARIABLE = 'MEDIA_STORE_URL'

export interface FileStoreLocation {
  kind: 'file'
  root: string
}

export interface S3StoreLocation {
  kind: 's3'
  /** `http://host:port` or `https://host[:port]`, without credentials. */
  endpoint: string
  bucket: string
  /** Prepended to every key: '' or a path ending in '/'. */
  prefix: string
  region: string
  accessKeyId: string
  /** Not enumerable: JSON.stringify and util.inspect of a location never show it. */
  readonly secretAccessKey: string
  sessionToken: string | undefined
  credentialsFrom: 'url' | 'environment'
  /** The URL with the secret replaced by `***`, for logs and errors. */
  redactedUrl: string
}

export type MediaStoreLocation = FileStoreLocation | S3StoreLocation

/** A bad MEDIA_STORE_URL: names the variable and the expected form; the value is quoted with its secret hidden. */
export class MediaStoreUrlError extends ConfigError {
  constructor (expected: string, shown: string) {
    super(VARIABLE, expected, shown)
    this.name = 'MediaStoreUrlError'
  }
}

const S3_SCHEMES: Record<string, 'http' | 'https'> = { 's3:': 'https', 's3+https:': 'https', 's3+http:': 'http', 'https:': 'https', 'http:': 'http' }
const S3_FORM = 's3://ACCESS_KEY:SECRET@host[:port]/bucket[/prefix][?region=…] (s3+http:// for plain HTTP)'
const ENCODED = `${S3_FORM}, with "/", "+", "@" and ":" in the access key or secret percent-encoded`
const EXPECTED = `unset (files in the data directory), file:/absolute/folder, or ${S3_FORM}`
// Bucket names as S3 accepts them for path-style requests (lower case, digits, dots, hyphens).
const BUCKET = /^(?!\d+\.\d+\.\d+\.\d+$)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/

/**
 * Hides credentials in a value that is about to be quoted. Everything between `://` and the last `@`
 * is userinfo (or a mangled secret that broke parsing), so all of it goes; a value with no `://` but an
 * `@` is not shown at all.
 */
export function redactStoreUrl (value: string): string {
  const at = value.lastIndexOf('@')
  if (at === -1) return value
  const scheme = value.indexOf('://')
  if (scheme === -1 || scheme > at) return '(not shown: it contains "@")'
  return `${value.slice(0, scheme + 3)}***@${value.slice(at + 1)}`
}

export interface ParseOptions {
  /** The data directory: the file store's default root is `<dataDir>/media`. */
  dataDir: string
  /** AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN (config.awsCredentials), used when the URL has no credentials. */
  env?: AwsCredentialsEnv
}

/**
 * Reads MEDIA_STORE_URL (docs/media-store.md, "Choosing a store"). Throws MediaStoreUrlError naming the
 * variable and the expected form; neither the error nor the returned object's enumerable fields carry
 * the secret.
 */
export function parseMediaStoreUrl (value: string | undefined, { dataDir, env = {} }: ParseOptions): MediaStoreLocation {
  const raw = value?.trim() ?? ''
  if (raw === '') return { kind: 'file', root: join(dataDir, 'media') }
  if (raw.startsWith('file:')) return parseFileUrl(raw)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new MediaStoreUrlError(raw.includes('@') ? ENCODED : EXPECTED, redactStoreUrl(raw))
  }
  const protocol = S3_SCHEMES[url.protocol]
  if (protocol === undefined) throw new MediaStoreUrlError(EXPECTED, redactStoreUrl(raw))
  return parseS3Url(raw, url, protocol, env)
}

function parseFileUrl (raw: string): FileStoreLocation {
  const expected = 'file: followed by an absolute folder path, e.g. file:/var/lib/reelhouse/media'
  if (!/^file:\/(?!\/)|^file:\/\/\//.test(raw)) throw new MediaStoreUrlError(expected, redactStoreUrl(raw))
  try {
    return { kind: 'file', root: fileURLToPath(raw) }
  } catch {
    throw new MediaStoreUrlError(expected, redactStoreUrl(raw))
  }
}

function parseS3Url (raw: string, url: URL, protocol: 'http' | 'https', env: AwsCredentialsEnv): S3StoreLocation {
  const shown = redactStoreUrl(raw)
  // A secret with an unencoded "/" ends the authority early and moves the rest into the path: refuse
  // rather than sign with half a secret and a wrong host.
  if (raw.includes('@') && url.username === '') throw new MediaStoreUrlError(ENCODED, shown)
  if (url.hostname === '') throw new MediaStoreUrlError(`${S3_FORM}: a host is missing`, shown)
  if (url.hash !== '') throw new MediaStoreUrlError(`${S3_FORM}: no #fragment`, shown)
  // The URL parser resolves "." and ".." in the path (bucket/../other names bucket "other"): refuse them.
  const afterScheme = raw.slice(raw.indexOf('://') + 3)
  const rawPath = (afterScheme.slice(afterScheme.lastIndexOf('@') + 1).replace(/^[^/?#]*/, '').split(/[?#]/)[0]) ?? ''
  if (rawPath.split('/').some((part) => part === '.' || part === '..')) {
    throw new MediaStoreUrlError(`${S3_FORM}: no "." or ".." in the path`, shown)
  }
  const [bucket = '', ...rest] = url.pathname.replace(/^\//, '').replace(/\/$/, '').split('/')
  if (bucket === '') throw new MediaStoreUrlError(`${S3_FORM}: the bucket is missing`, shown)
  if (!BUCKET.test(bucket)) throw new MediaStoreUrlError(`${S3_FORM}: the bucket is 3 to 63 lower-case letters, digits, dots or hyphens`, shown)
  const prefixPath = rest.join('/')
  if (prefixPath !== '' && !isValidKey(prefixPath)) {
    throw new MediaStoreUrlError(`${S3_FORM}: the prefix after the bucket is made of A-Z a-z 0-9 . _ - segments`, shown)
  }
  const unknown = [...url.searchParams.keys()].filter((name) => name !== 'region')
  if (unknown.length > 0) throw new MediaStoreUrlError(`${S3_FORM}: the only query parameter is region (got ${unknown.join(', ')})`, shown)
  const region = url.searchParams.get('region') ?? 'us-east-1'
  if (!/^[a-z0-9-]{1,64}$/.test(region)) throw new MediaStoreUrlError(`${S3_FORM}: region is a name like us-east-1`, shown)

  const credentials = credentialsOf(url, env, shown)
  const location = {
    kind: 's3' as const,
    endpoint: `${protocol}://${url.host}`,
    bucket,
    prefix: prefixPath === '' ? '' : `${prefixPath}/`,
    region,
    accessKeyId: credentials.accessKeyId,
    sessionToken: credentials.sessionToken,
    credentialsFrom: credentials.from,
    redactedUrl: redactStoreUrl(raw)
  }
  Object.defineProperty(location, 'secretAccessKey', { value: credentials.secretAccessKey, enumerable: false })
  return location as S3StoreLocation
}

function credentialsOf (url: URL, env: AwsCredentialsEnv, shown: string): {
  accessKeyId: string, secretAccessKey: string, sessionToken: string | undefined, from: 'url' | 'environment'
} {
  if (url.username !== '' || url.password !== '') {
    if (url.username === '' || url.password === '') {
      throw new MediaStoreUrlError(`${S3_FORM}: give both the access key and the secret, or neither`, shown)
    }
    try {
      return { accessKeyId: decodeURIComponent(url.username), secretAccessKey: decodeURIComponent(url.password), sessionToken: undefined, from: 'url' }
    } catch {
      throw new MediaStoreUrlError(`${S3_FORM}, with valid percent-encoding in the credentials`, shown)
    }
  }
  const accessKeyId = env.AWS_ACCESS_KEY_ID?.trim() ?? ''
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY?.trim() ?? ''
  if (accessKeyId === '' || secretAccessKey === '') {
    throw new MediaStoreUrlError(`${S3_FORM}; without credentials in the URL, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set`, shown)
  }
  const sessionToken = env.AWS_SESSION_TOKEN?.trim()
  return { accessKeyId, secretAccessKey, sessionToken: sessionToken === '' ? undefined : sessionToken, from: 'environment' }
}
