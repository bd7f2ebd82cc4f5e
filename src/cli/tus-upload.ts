import { createReadStream, readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { rootCertificates } from 'node:tls'
import * as tus from 'tus-js-client'
import type { UploadProgress } from 'reelhouse/client'
import { CliError } from './cli-error.ts'
import type { Connection } from './connection.ts'
import { readUpload, writeUpload } from './upload-state.ts'

interface DirectUpload { id: string, url: string, upload_url: string | null, status: string, asset_id: string | null, error: string | null }

export interface TusUploadOptions {
  name: string
  assetType: string
  chunkSize: number
  size: number
  stateFile: string
  key: string
  onProgress: (progress: UploadProgress) => void
}

/**
 * `reelhouse upload --tus`: the file goes up as a direct upload over tus (docs/uploads.md, "tus"),
 * in PATCHes of `chunkSize` bytes. Run again after an interruption, it asks the direct upload for its
 * `upload_url` and continues from the offset the server holds. Answers the asset's id.
 */
export async function uploadOverTus (connection: Connection, path: string, options: TusUploadOptions): Promise<string> {
  const { client, address, certFile } = connection
  const stateKey = `tus|${options.key}`
  const earlier = readUpload(options.stateFile, stateKey)
  let direct: DirectUpload | undefined
  if (earlier?.direct_upload_id !== undefined) {
    direct = await client.request<DirectUpload>('GET', `/v2/direct_uploads/${earlier.direct_upload_id}`).catch(() => undefined)
    if (direct?.status === 'asset_created' && direct.asset_id !== null) return direct.asset_id
    if (direct?.status !== 'waiting') direct = undefined
    else process.stderr.write(`Continuing direct upload ${direct.id}\n`)
  }
  direct ??= await client.request<DirectUpload>('POST', '/v2/direct_uploads', {
    body: { new_asset_settings: { name: options.name, asset_type: options.assetType } }
  })
  writeUpload(options.stateFile, stateKey, { asset_id: '', chunk_size: options.chunkSize, direct_upload_id: direct.id })

  // The service's URLs name its public address; this machine reaches it at the address it was given.
  const publicOrigin = new URL(direct.url).origin
  const reachable = new URL(address.url).origin
  const inner = new tus.DefaultHttpStack(certFile === undefined ? {} : { ca: [...rootCertificates, readFileSync(certFile, 'utf8')] })
  const httpStack: tus.HttpStack = {
    createRequest: (method, url) => inner.createRequest(method, url.startsWith(publicOrigin) ? reachable + url.slice(publicOrigin.length) : url),
    getName: () => 'reelhouse-cli'
  }
  const chunkCount = Math.max(1, Math.ceil(options.size / options.chunkSize))
  await new Promise<void>((resolve, reject) => {
    const upload = new tus.Upload(createReadStream(path), {
      ...(direct.upload_url === null ? { endpoint: direct.url } : { uploadUrl: direct.upload_url }),
      uploadSize: options.size,
      chunkSize: options.chunkSize,
      retryDelays: [0, 1000, 3000, 5000],
      metadata: { filename: basename(path) },
      httpStack,
      onProgress: (sent) => { options.onProgress({ sentBytes: sent, totalBytes: options.size, chunksDone: Math.floor(sent / options.chunkSize), chunkCount }) },
      onSuccess: () => { resolve() },
      onError: (error) => { reject(new CliError(`The tus upload failed: ${error.message}`)) }
    })
    upload.start()
  })
  const done = await client.request<DirectUpload>('GET', `/v2/direct_uploads/${direct.id}`)
  writeUpload(options.stateFile, stateKey, undefined)
  if (done.asset_id === null) throw new CliError(`The upload completed but made no asset (${done.status}${done.error === null ? '' : `: ${done.error}`}).`)
  return done.asset_id
}
