import type { Asset } from 'reelhouse/client'
import * as tus from 'tus-js-client'
import type { Session } from './shell.ts'

interface DirectUpload { id: string, url: string, upload_url: string | null, status: string, asset_id: string | null, error: string | null }

/** What the panel shows while a tus upload runs, and the control it gets back. */
export interface TusUploadHooks {
  onProgress: (sent: number, total: number) => void
  /** Called once the upload runs: pause and resume it. */
  onControl: (control: { pause: () => void, resume: () => void }) => void
  /** Called when an upload of the same file left by an earlier page (a reload) is continued. */
  onResume: () => void
}

/** About twenty PATCHes, each between 1 MiB and 16 MiB: what a reload loses is at most one of them. */
function chunkSizeFor (size: number): number {
  return Math.min(16 * 1024 * 1024, Math.max(1024 * 1024, Math.ceil(size / 20)))
}

/**
 * The console's uploads over tus (docs/uploads.md, "tus"): a direct upload for the file, sent with
 * tus-js-client in PATCHes the user can pause and resume. tus-js-client keeps the upload's URL in
 * localStorage under a fingerprint of the file and the user (not of the direct upload's URL), so the
 * same file dropped after a reload continues from the offset the server holds. Resolves with the asset
 * the completed upload created, then `processing`.
 */
export async function uploadWithTus (session: Session, file: File, hooks: TusUploadHooks): Promise<Asset> {
  const { client, credentials } = session
  const fingerprint = `reelhouse-tus:${credentials.apiKey}:${file.name}:${file.type}:${file.size}:${file.lastModified}`
  const options: tus.UploadOptions = {
    chunkSize: chunkSizeFor(file.size),
    retryDelays: [0, 1000, 3000, 5000],
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    fingerprint: async () => fingerprint,
    onProgress: (sent, total) => { hooks.onProgress(sent, total) }
  }
  const probe = new tus.Upload(file, options)
  const previous = (await probe.findPreviousUploads())[0]
  let directId = previous?.metadata.direct_upload_id
  let endpoint: string | undefined
  if (previous === undefined || directId === undefined) {
    const name = file.name.replace(/\.[^.]+$/, '')
    const direct = await client.request<DirectUpload>('POST', '/v2/direct_uploads', {
      body: { cors_origin: location.origin, timeout: 86_400, new_asset_settings: { name, asset_type: file.type.startsWith('audio/') ? 'audio' : 'video' } }
    })
    directId = direct.id
    endpoint = direct.url
  }
  const id = directId
  await new Promise<void>((resolve, reject) => {
    const upload = new tus.Upload(file, {
      ...options,
      ...(endpoint === undefined ? {} : { endpoint }),
      metadata: { filename: file.name, filetype: file.type, direct_upload_id: id },
      onSuccess: () => { resolve() },
      onError: (error) => { reject(error) }
    })
    if (previous !== undefined && endpoint === undefined) {
      upload.resumeFromPreviousUpload(previous)
      hooks.onResume()
    }
    hooks.onControl({ pause: () => { void upload.abort() }, resume: () => { upload.start() } })
    upload.start()
  })
  const done = await client.request<DirectUpload>('GET', `/v2/direct_uploads/${id}`)
  if (done.asset_id === null) throw new Error(`The upload completed but made no asset (${done.status}${done.error === null ? '' : `: ${done.error}`}).`)
  return await client.assets.get(done.asset_id)
}
