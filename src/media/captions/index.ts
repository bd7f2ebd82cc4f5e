/** Generated captions: the engines (pocketsphinx through ffmpeg, whisper.cpp) and the worker's job that runs them. */
export { checkEngineSpeaks, chooseCaptionEngine, type CaptionEngineChoice } from './caption-engines.ts'
export { runCaptionsJob, type GeneratedCaptionsSink } from './captions-job.ts'
export { captionsGenerateRoutes, createCaptionsGenerateService } from './captions-generate.ts'
