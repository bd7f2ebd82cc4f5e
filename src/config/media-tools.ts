import type { Env } from './parse.ts'

/** The variables a media tool's process may inherit: what finding programs and libraries needs, no secrets. */
const INHERITED = ['PATH', 'LD_LIBRARY_PATH', 'DYLD_LIBRARY_PATH', 'SYSTEMROOT', 'TMPDIR', 'TEMP', 'TMP'] as const

/**
 * What the media worker reads to find ffmpeg (docs/media-processing.md): FFMPEG_PATH and FFPROBE_PATH
 * when set, PATH otherwise; the same PATH and library paths are all a tool's process gets from ours.
 */
export interface MediaToolsEnv {
  FFMPEG_PATH?: string | undefined
  FFPROBE_PATH?: string | undefined
  PATH?: string | undefined
  LD_LIBRARY_PATH?: string | undefined
  DYLD_LIBRARY_PATH?: string | undefined
  SYSTEMROOT?: string | undefined
  TMPDIR?: string | undefined
  TEMP?: string | undefined
  TMP?: string | undefined
}

export function mediaToolsEnv (env: Env): MediaToolsEnv {
  const picked: MediaToolsEnv = { FFMPEG_PATH: env.FFMPEG_PATH, FFPROBE_PATH: env.FFPROBE_PATH }
  // Where programs and libraries are found is the process's own: a configuration given without them (an
  // embedding application's, a test's) still finds the installed ffmpeg rather than falling back to wasm.
  for (const name of INHERITED) {
    const value = env[name] ?? process.env[name]
    if (value !== undefined) picked[name] = value
  }
  return picked
}

/** The environment a media tool runs with: the inherited variables of `env` and LC_ALL=C (stable output to parse). */
export function toolProcessEnv (env: MediaToolsEnv): Record<string, string> {
  const child: Record<string, string> = { LC_ALL: 'C' }
  for (const name of INHERITED) {
    const value = env[name]
    if (value !== undefined) child[name] = value
  }
  return child
}
