import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { speechRecognitionArgs, speechWavArgs } from './ffmpeg-arguments.ts'
import { MediaToolsUnavailableError } from './media-errors.ts'
import { runMediaTool } from './media-runner.ts'
import type { MediaTools } from './processing-types.ts'
import { toolFailure } from './tool-output.ts'

/** One utterance the recogniser heard: its text, and the time (ms) it was emitted, when it ended. */
export interface Utterance {
  endMs: number
  text: string
}

interface SpeechOptions {
  timeoutMs: number
  signal?: AbortSignal | undefined
}

/**
 * Runs pocketsphinx over the file's first audio stream through ffmpeg's `asr` filter (the system ffmpeg
 * only: the wasm build has no pocketsphinx), answering the utterances in order. Writes `asr.txt` in `outDir`.
 */
export async function recogniseSpeech (tools: MediaTools, inputFile: string, outDir: string, modelDir: string, options: SpeechOptions): Promise<Utterance[]> {
  if (tools.kind !== 'native') throw new MediaToolsUnavailableError('Speech recognition needs the system ffmpeg (its asr filter); this worker runs the built-in one.')
  const what = 'Recognising speech'
  const result = await runMediaTool(tools, { program: 'ffmpeg', args: (run) => speechRecognitionArgs(run, modelDir), inputFile, outDir, what, timeoutMs: options.timeoutMs, signal: options.signal })
  if (result.exitCode !== 0) throw toolFailure(what, result)
  return parseAsrMetadata(await readFile(join(outDir, 'asr.txt'), 'utf8').catch(() => ''))
}

/** `ametadata=mode=print` output: a `frame:… pts_time:T` line, then `lavfi.asr.text=…` for each utterance. */
export function parseAsrMetadata (text: string): Utterance[] {
  const utterances: Utterance[] = []
  let timeMs = 0
  for (const line of text.split('\n')) {
    const time = /pts_time:(\d+(?:\.\d+)?)/.exec(line)
    if (time !== null) timeMs = Math.round(Number(time[1]) * 1000)
    const heard = /^lavfi\.asr\.text=(.*)$/.exec(line.trim())
    if (heard !== null && (heard[1] ?? '').trim() !== '') utterances.push({ endMs: timeMs, text: (heard[1] ?? '').trim() })
  }
  return utterances
}

/** The file's first audio stream as 16 kHz mono WAV (`speech.wav` in `outDir`), answering its path. */
export async function speechWav (tools: MediaTools, inputFile: string, outDir: string, options: SpeechOptions): Promise<string> {
  const what = 'Extracting the audio'
  const result = await runMediaTool(tools, { program: 'ffmpeg', args: speechWavArgs, inputFile, outDir, what, timeoutMs: options.timeoutMs, signal: options.signal })
  if (result.exitCode !== 0) throw toolFailure(what, result)
  return join(outDir, 'speech.wav')
}
