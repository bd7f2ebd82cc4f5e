import type { Rendition } from './processing-types.ts'

/**
 * Every ffmpeg/ffprobe argument list the engine runs, in one place (docs/media-processing.md quotes
 * them). The runner adds nothing but the program path; paths come in as the running ffmpeg sees them.
 */

/**
 * Demuxers an upload may be read with. The protocol whitelist alone is not enough: an uploaded HLS
 * playlist or ffconcat list names other files on disk and the `file` protocol would open them, so only
 * container formats that never open a second file are allowed (`hls`, `concat`, `image2`, `dash`, `sdp`…
 * are refused). `mov` also covers mp4, m4a, 3gp; `aiff` is the one addition for Apple audio exports.
 */
export const FORMAT_WHITELIST = 'mov,matroska,webm,avi,mpegts,mpeg,flv,ogg,asf,mp3,wav,flac,aac,aiff'

/** x264's `veryfast` takes half the time of the default `medium` for a small loss at equal bit rate. */
export const X264_PRESET = 'veryfast'
/** HLS segment length in seconds; key frames every 2 s keep segment borders equal across renditions. */
export const SEGMENT_SECONDS = 6
export const KEY_FRAME_SECONDS = 2
export const PREVIEW_FILE = 'preview.jpg'
export const MEDIA_PLAYLIST_FILE = 'index.m3u8'
export const SEGMENT_PATTERN = 'segment-%05d.ts'

/** Inside the wasm build the input and the outputs live in a virtual file system at these paths. */
export const WASM_INPUT_DIR = '/job'
export const WASM_OUT_DIR = '/out'

/** What a run is given: paths as the running ffmpeg sees them (virtual ones inside the wasm build), and its thread count. */
export interface RunContext {
  input: string
  outDir: string
  /** Decoder and encoder threads; memory grows with them (about 70 MB per thread at 1080p). */
  threads: number
}

/** Quiet output: only errors reach stderr, which is kept for the operator's log, never shown to users. */
const QUIET = ['-hide_banner', '-loglevel', 'error']

/**
 * Options placed before every `-i`: read only local files, and only with whitelisted demuxers. The input
 * is named with an explicit `file:` so that no file name is taken for a protocol or an option.
 */
function guardedInput (run: RunContext): string[] {
  return ['-protocol_whitelist', 'file', '-format_whitelist', FORMAT_WHITELIST, '-threads', String(run.threads), '-i', `file:${run.input}`]
}

/** What `probeMedia` asks ffprobe for (and nothing else, so a file with a thousand streams stays small). */
const PROBE_ENTRIES = [
  'format=duration,bit_rate,format_name',
  'format_tags=major_brand',
  'stream=index,codec_type,codec_name,width,height,sample_aspect_ratio,avg_frame_rate,r_frame_rate,bit_rate,sample_rate,channels',
  'stream_disposition=attached_pic',
  'stream_tags=rotate',
  'stream_side_data=rotation'
].join(':')

/** ffprobe has no `-nostdin` (it never reads stdin); the runner gives it /dev/null as stdin instead. */
export function probeArgs (run: RunContext): string[] {
  return [
    ...QUIET,
    '-protocol_whitelist', 'file', '-format_whitelist', FORMAT_WHITELIST,
    '-show_entries', PROBE_ENTRIES,
    '-of', 'json',
    `file:${run.input}`
  ]
}

/**
 * For files whose header has no duration (a browser's MediaRecorder WebM): copy one stream to nowhere
 * and read the last timestamp from the progress report. No decoding, so it runs at disk speed.
 */
export function durationPassArgs (run: RunContext, streamIndex: number): string[] {
  return [
    '-nostdin', ...QUIET, '-progress', 'pipe:1', '-nostats',
    ...guardedInput(run),
    '-map', `0:${streamIndex}`, '-c', 'copy', '-f', 'null', '-'
  ]
}

export interface PreviewSpec {
  atSeconds: number
  streamIndex: number
  width: number
  height: number
}

/**
 * One JPEG frame. `-ss` before `-i` seeks in the demuxer (fast on long files); the size is upright
 * because ffmpeg applies the rotation metadata when it filters; `-map_metadata -1` keeps tags (GPS…)
 * out of the output. `-huffman default`: with the per-image optimal tables (the default) the wasm
 * build (@ffmpeg/core 0.12.10) crashes or hangs on some frames at high quality; the standard tables
 * cost a few per cent of size and are used everywhere, so both builds run the same command.
 */
export function previewArgs (run: RunContext, spec: PreviewSpec): string[] {
  return [
    '-nostdin', ...QUIET,
    '-ss', spec.atSeconds.toFixed(3),
    ...guardedInput(run),
    '-map', `0:${spec.streamIndex}`, '-map_metadata', '-1',
    '-frames:v', '1',
    '-vf', `scale=${spec.width}:${spec.height},setsar=1`,
    '-c:v', 'mjpeg', '-q:v', '3', '-huffman', 'default',
    '-f', 'image2', '-update', '1', '-y',
    `${run.outDir}/${PREVIEW_FILE}`
  ]
}

/** One HLS rendition: H.264 High + AAC-LC stereo in MPEG-TS segments, a VOD media playlist. */
export function renditionArgs (run: RunContext, r: Rendition): string[] {
  const maps = [
    ...(r.videoStreamIndex === null ? [] : ['-map', `0:${r.videoStreamIndex}`]),
    ...(r.audioStreamIndex === null ? [] : ['-map', `0:${r.audioStreamIndex}`])
  ]
  return [
    '-nostdin', ...QUIET, '-progress', 'pipe:1', '-nostats',
    ...guardedInput(run),
    ...maps, '-map_metadata', '-1', '-map_chapters', '-1',
    ...(r.kind === 'video' ? videoEncoding(r, run.threads) : ['-vn']),
    ...(r.audioBitRate === null ? ['-an'] : audioEncoding(r.audioBitRate)),
    '-f', 'hls',
    '-hls_time', String(SEGMENT_SECONDS),
    '-hls_playlist_type', 'vod',
    '-hls_flags', 'independent_segments',
    '-hls_segment_type', 'mpegts',
    '-hls_segment_filename', `${run.outDir}/${SEGMENT_PATTERN}`,
    '-y', `${run.outDir}/${MEDIA_PLAYLIST_FILE}`
  ]
}

function videoEncoding (r: Rendition, threads: number): string[] {
  if (r.width === null || r.height === null || r.videoBitRate === null || r.videoMaxRate === null || r.videoBufSize === null || r.level === null) {
    throw new Error(`rendition ${r.name} is a video rendition without a size, bit rate or level`)
  }
  const filters = [
    ...(r.maxFrameRate === null ? [] : [`fps=${r.maxFrameRate}`]),
    `scale=${r.width}:${r.height}`,
    'setsar=1'
  ]
  return [
    '-vf', filters.join(','),
    '-c:v', 'libx264', '-preset', X264_PRESET, '-profile:v', 'high', '-level:v', r.level, '-pix_fmt', 'yuv420p', '-threads', String(threads),
    '-b:v', String(r.videoBitRate), '-maxrate', String(r.videoMaxRate), '-bufsize', String(r.videoBufSize),
    '-force_key_frames', `expr:gte(t,n_forced*${KEY_FRAME_SECONDS})`
  ]
}

function audioEncoding (bitRate: number): string[] {
  return ['-c:a', 'aac', '-b:a', String(bitRate), '-ac', '2', '-ar', '48000']
}

/** Start-up checks: the version banner, and that the encoders the ladder needs are built in. */
export const VERSION_ARGS = ['-hide_banner', '-version']
export const ENCODERS_ARGS = ['-hide_banner', '-encoders']

/** Audio as speech recognisers take it: 16 kHz mono 16-bit samples. */
const SPEECH_AUDIO = 'aresample=16000,aformat=sample_fmts=s16:channel_layouts=mono'

/**
 * The first audio stream through ffmpeg's `asr` filter (pocketsphinx) with the model in `modelDir`, each
 * utterance's text written to `<outDir>/asr.txt` with its time. The audio is padded with two seconds of
 * silence: the filter emits an utterance only once it has ended, so speech up to the last sample would
 * give nothing.
 */
export function speechRecognitionArgs (run: RunContext, modelDir: string): string[] {
  const model = (file: string): string => `${modelDir}/${file}`.replace(/[\\:,'=;[\]]/g, (c) => `\\${c}`)
  const asr = `asr=hmm=${model('en-us')}:dict=${model('cmudict-en-us.dict')}:lm=${model('en-us.lm.bin')}`
  return [
    ...QUIET, '-nostdin', ...guardedInput(run),
    '-map', '0:a:0', '-vn',
    '-af', `apad=pad_dur=2,${SPEECH_AUDIO},${asr},ametadata=mode=print:file=${run.outDir}/asr.txt`,
    '-f', 'null', '-'
  ]
}

/** The first audio stream as 16 kHz mono WAV in `<outDir>/speech.wav` (what whisper.cpp reads). */
export function speechWavArgs (run: RunContext): string[] {
  return [...QUIET, '-nostdin', ...guardedInput(run), '-map', '0:a:0', '-vn', '-af', SPEECH_AUDIO, '-c:a', 'pcm_s16le', '-f', 'wav', `file:${run.outDir}/speech.wav`]
}
