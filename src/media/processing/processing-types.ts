/**
 * The plain-data shapes the processing engine hands to its caller. Everything here is JSON-safe, so a
 * worker can store a probe result or a ladder plan with its job and pick it up again after a restart.
 */

/** The ffmpeg the engine runs: a system build, or the bundled WebAssembly build in a child process. */
export type MediaTools = NativeMediaTools | WasmMediaTools

interface MediaToolsCommon {
  /** ffmpeg's own version string, e.g. `5.1.9-0+deb12u1`. */
  version: string
  /** One line for the start-up log: which ffmpeg and why. */
  summary: string
  limits: MediaLimits
  /** util-linux `prlimit`, used to cap memory and CPU time; null where it does not exist (no cap). */
  prlimitPath: string | null
  /** util-linux `setpriv`, used to end a run when the worker that started it dies; null where it does not exist. */
  setprivPath: string | null
  /** The environment every run gets: PATH and library paths, no secrets (config.mediaTools). */
  childEnv: Record<string, string>
}

export interface NativeMediaTools extends MediaToolsCommon {
  kind: 'native'
  ffmpegPath: string
  ffprobePath: string
  /** Where the paths came from. */
  source: 'FFMPEG_PATH' | 'PATH'
}

export interface WasmMediaTools extends MediaToolsCommon {
  kind: 'wasm'
  /** The folder holding `ffmpeg-core.js` and `ffmpeg-core.wasm`. */
  coreDir: string
  corePackageVersion: string
  /** Why a system ffmpeg is better, for the start-up log and the operator. */
  recommendation: string
}

/** Limits that hold for every run of a deployment (per-call time limits are options of each call). */
export interface MediaLimits {
  /** Decoder and encoder threads of a native run (the wasm build has one). */
  threads: number
  /** Data-segment cap of each run (RLIMIT_DATA through prlimit); 0 turns it off. */
  memoryLimitBytes: number
  /** Added niceness of every ffmpeg/ffprobe process (0–19). */
  niceness: number
  /** The wasm build copies the whole input into 32-bit memory: larger inputs are refused. */
  wasmMaxInputBytes: number
}

export type MediaStreamType = 'video' | 'audio'

/** One stream of the source as `source_file_info` shows it. Fields that do not apply are null. */
export interface ProbeStream {
  /** The stream's index in the source file (what `-map 0:<index>` selects). */
  index: number
  type: MediaStreamType
  codec: string
  width: number | null
  height: number | null
  /** Counter-clockwise rotation of the display matrix, as ffprobe reports it, in 0, 90, 180 or 270. */
  rotation: number | null
  /** The size a player shows: sample aspect ratio applied, and swapped for a quarter-turn rotation. */
  displayWidth: number | null
  displayHeight: number | null
  frameRate: number | null
  bitRate: number | null
  sampleRate: number | null
  channels: number | null
}

export interface ProbeResult {
  durationMs: number
  /** A short container name: mp4, mov, m4a, 3gp, mkv, webm, avi, mpegts, mpeg, flv, ogg, asf, mp3, wav, flac, aac, aiff. */
  container: string
  bitRate: number | null
  /** Video streams first, then audio, each in file order. Cover art, subtitles and data are left out. */
  streams: ProbeStream[]
}

/** One rung of the HLS ladder, fully decided: `transcodeRendition` needs nothing else. */
export interface Rendition {
  /** `360p`, `720p`, `1080p`, a source-sized `480p`, or `audio`; also the rendition's folder name. */
  name: string
  kind: 'video' | 'audio'
  /** Output size, upright (display orientation); null for audio. */
  width: number | null
  height: number | null
  /** Output frame rate cap; null keeps the source's (audio: null). */
  maxFrameRate: number | null
  /** H.264 target, peak and buffer in bits/s (null for audio). */
  videoBitRate: number | null
  videoMaxRate: number | null
  videoBufSize: number | null
  /** H.264 level, e.g. `3.1` (null for audio). */
  level: string | null
  /** AAC bit rate in bits/s; null for a video without audio. */
  audioBitRate: number | null
  /** The source streams it maps. */
  videoStreamIndex: number | null
  audioStreamIndex: number | null
  /** The RFC 8216 CODECS attribute of its variant, e.g. `avc1.64001f,mp4a.40.2`. */
  codecs: string
  /** The source's duration, for progress. */
  sourceDurationMs: number
}

/** What `transcodeRendition` made: one folder holding `index.m3u8` and its segments. */
export interface RenditionOutput {
  rendition: Rendition
  /** Absolute folder of this rendition (`<outDir>/<name>`). */
  directory: string
  /** File names inside `directory`: the playlist first, then the segments in order. */
  files: string[]
  /** Path of the media playlist relative to the master playlist's folder, e.g. `720p/index.m3u8`. */
  uri: string
  durationMs: number
  /** Peak segment bit rate in bits/s (RFC 8216 BANDWIDTH), measured on the segments written. */
  bandwidth: number
  /** Mean bit rate over the whole rendition (AVERAGE-BANDWIDTH). */
  averageBandwidth: number
}

export interface PreviewImage {
  /** Absolute path of the JPEG. */
  file: string
  width: number
  height: number
  /** Where in the source the frame was taken. */
  atMs: number
}

/** pino's `info`/`warn` shape, so the app's logger can be passed as it is. */
export interface MediaLogger {
  info: (obj: object, msg: string) => void
  warn: (obj: object, msg: string) => void
}
