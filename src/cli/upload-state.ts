import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { profilesFilePath } from './profiles-file.ts'
import type { CliEnv } from '../config/index.ts'

/**
 * Which asset an interrupted `reelhouse upload` was filling, so that running it again continues it:
 * `uploads.json` beside the profiles file, keyed by the server, the API key and the file (absolute path,
 * size and modification time: a changed file starts a new upload). Holds no secret.
 */
export interface UploadEntry { asset_id: string, chunk_size: number }

export function uploadStateFile (env: CliEnv): string {
  return join(dirname(profilesFilePath(env)), 'uploads.json')
}

export function uploadKey (parts: { baseUrl: string, apiKey: string, path: string, size: number, mtimeMs: number }): string {
  return [parts.baseUrl, parts.apiKey, parts.path, parts.size, Math.floor(parts.mtimeMs)].join('|')
}

function readAll (file: string): Record<string, UploadEntry> {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { uploads?: Record<string, UploadEntry> }
    return parsed.uploads ?? {}
  } catch {
    return {} // none yet, or unreadable: a new upload is the safe outcome
  }
}

export function readUpload (file: string, key: string): UploadEntry | undefined {
  return readAll(file)[key]
}

/** Records (or, with undefined, forgets) the upload of `key`; written to a temporary file renamed into place. */
export function writeUpload (file: string, key: string, entry: UploadEntry | undefined): void {
  const uploads = readAll(file)
  if (entry === undefined) delete uploads[key]
  else uploads[key] = entry
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
  const temporary = `${file}.${process.pid}.tmp`
  writeFileSync(temporary, JSON.stringify({ uploads }, null, 2) + '\n', { mode: 0o600 })
  renameSync(temporary, file)
}
