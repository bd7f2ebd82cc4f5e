import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { recogniseSpeech, speechWav, type MediaTools } from '../processing/index.ts'
import { ApiError, validationError } from '../../errors/api-error.ts'
import { captionText, parseCaptions, type Cue } from '../../resources/assets/index.ts'

const run = promisify(execFile)

/** The operator's settings for generated captions (`CAPTIONS_*`). */
export interface CaptionEngineSettings {
  whisperBin: string | undefined
  whisperModel: string | undefined
  pocketsphinxModel: string
}

/** The engine generated captions use here, or why there is none. */
export type CaptionEngineChoice =
  | { name: 'whisper', bin: string, model: string }
  | { name: 'pocketsphinx', modelDir: string }
  | { name: 'off', reason: string }

/** The files of pocketsphinx's English model that the asr filter reads. */
const POCKETSPHINX_FILES = ['en-us', 'cmudict-en-us.dict', 'en-us.lm.bin']

/**
 * whisper.cpp when the operator set its executable and model, else pocketsphinx when Debian's English
 * model is installed, else off with the reason. Nothing is downloaded.
 */
export function chooseCaptionEngine (settings: CaptionEngineSettings): CaptionEngineChoice {
  if (settings.whisperBin !== undefined && settings.whisperModel !== undefined) {
    return { name: 'whisper', bin: settings.whisperBin, model: settings.whisperModel }
  }
  const missing = POCKETSPHINX_FILES.filter((file) => !existsSync(join(settings.pocketsphinxModel, file)))
  if (missing.length === 0) return { name: 'pocketsphinx', modelDir: settings.pocketsphinxModel }
  return {
    name: 'off',
    reason: `generated captions are off: CAPTIONS_WHISPER_BIN and CAPTIONS_WHISPER_MODEL are not set, and pocketsphinx's English model is not in ${settings.pocketsphinxModel} (Debian's pocketsphinx-en-us package installs it)`
  }
}

/** Whether the engine transcribes `language`: pocketsphinx's model is English; whisper's are multilingual. */
function engineSpeaks (choice: CaptionEngineChoice, language: string): boolean {
  if (choice.name === 'off') return false
  return choice.name === 'whisper' || language === 'en' || language.startsWith('en-')
}

/** A 409 when generated captions are off, a 400 naming `field` for a language the engine does not transcribe. */
export function checkEngineSpeaks (choice: CaptionEngineChoice, languages: readonly string[], field: string): void {
  if (choice.name === 'off') throw new ApiError('captions_generation_off', `The service cannot generate captions: ${choice.reason}.`)
  const unspoken = languages.find((language) => !engineSpeaks(choice, language))
  if (unspoken !== undefined) {
    throw validationError(`Field ${field}: ${choice.name} transcribes English only (en); this service has no whisper model for ${unspoken}.`, { [field]: [`is not a language ${choice.name} transcribes`] })
  }
}

interface TranscribeRun {
  /** The media file, alone in its folder. */
  input: string
  /** A folder of the job's own, outside the input's folder. */
  outDir: string
  language: string
  durationMs: number
  timeoutMs: number
  signal: AbortSignal
}

/** Runs the chosen engine over the file's speech, answering cues inside the media's duration. */
export async function transcribe (choice: CaptionEngineChoice, tools: MediaTools, job: TranscribeRun): Promise<Cue[]> {
  if (choice.name === 'off') throw new Error(choice.reason)
  if (choice.name === 'pocketsphinx') {
    const utterances = await recogniseSpeech(tools, job.input, job.outDir, choice.modelDir, { timeoutMs: job.timeoutMs, signal: job.signal })
    // The filter tells when an utterance ended, not when it began: each cue starts where the one before
    // it ended, and none passes the end of the media (the padding adds silence after it).
    const cues: Cue[] = []
    let startMs = 0
    for (const utterance of utterances) {
      const endMs = Math.min(utterance.endMs, job.durationMs)
      if (endMs <= startMs) continue
      cues.push({ startMs, endMs, text: escapeCueText(utterance.text) })
      startMs = endMs
    }
    return cues
  }
  const wav = await speechWav(tools, job.input, job.outDir, { timeoutMs: job.timeoutMs, signal: job.signal })
  const base = join(job.outDir, 'whisper')
  await run(choice.bin, whisperArgs(choice.model, wav, job.language, base), { timeout: job.timeoutMs, signal: job.signal, maxBuffer: 16 * 1024 * 1024 })
  const parsed = await parseCaptions(captionText(await readFile(`${base}.vtt`)))
  return parsed.cues
    .map((cue) => ({ ...cue, endMs: Math.min(cue.endMs, job.durationMs) }))
    .filter((cue) => cue.endMs > cue.startMs)
}

/** whisper.cpp's command line: the model, the 16 kHz WAV, the language, WebVTT out to `<base>.vtt`, no progress prints. */
function whisperArgs (model: string, wav: string, language: string, base: string): string[] {
  return ['--model', model, '--file', wav, '--language', language.split('-')[0] ?? language, '--output-vtt', '--output-file', base, '--no-prints']
}

function escapeCueText (text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}
