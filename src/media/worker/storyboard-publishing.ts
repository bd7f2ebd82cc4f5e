import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { FRAME_NAME, FRAMES_DIR, renderStoryboardVtt, type StoryboardPlan } from '../processing/index.ts'
import { CONTENT_TYPES, FRAMES_FILE, STORYBOARD_FILE, type MediaStore } from '../store/index.ts'

/**
 * Publishes a storyboard while the ladder's decode makes it (docs/media.md, "Storyboards"): each sprite
 * sheet goes to the store as ffmpeg finishes it, then the WebVTT file is rewritten to list its cues. The
 * file exists (empty of cues) before the asset turns playable, so `stream_urls.storyboard` never names a
 * missing file; once the ladder is done its last cue ends where the media ends.
 */
export class StoryboardPublishing {
  private sheets = 0

  constructor (
    private readonly store: MediaStore,
    private readonly prefix: string,
    readonly plan: StoryboardPlan
  ) {}

  /** The WebVTT file with no sheets yet, written before the ladder starts. */
  async begin (): Promise<void> {
    await this.putVtt(null)
  }

  /** Sheets ffmpeg finished: to the store, then the cues that point into them. */
  async add (directory: string, fresh: string[]): Promise<void> {
    if (fresh.length === 0) return
    for (const name of fresh) await this.store.uploadFrom(join(directory, name), `${this.prefix}storyboard/${name}`, CONTENT_TYPES.preview)
    this.sheets += fresh.length
    await this.putVtt(null)
  }

  /**
   * The ladder is done: the last sheet's cues, up to `durationMs`, the media that plays; and the
   * generated preview images of the same decode (in `outDir`), listed with their times in `frames/index.json`.
   */
  async finish (durationMs: number, outDir: string): Promise<void> {
    if (this.sheets > 0) await this.putVtt(durationMs)
    const directory = join(outDir, FRAMES_DIR)
    const names = (await readdir(directory).catch(() => [])).filter((name) => FRAME_NAME.test(name)).sort()
    const { intervalSeconds, width, height } = this.plan.frames
    const frames = names.map((file, i) => ({ time: i * intervalSeconds, file, width, height })).filter((f) => f.time * 1000 <= durationMs)
    for (const f of frames) await this.store.uploadFrom(join(directory, f.file), `${this.prefix}${FRAMES_DIR}/${f.file}`, CONTENT_TYPES.preview)
    await this.store.put(`${this.prefix}${FRAMES_FILE}`, Buffer.from(JSON.stringify(frames)), { contentType: 'application/json' })
  }

  private async putVtt (durationMs: number | null): Promise<void> {
    const text = renderStoryboardVtt(this.plan, this.sheets, durationMs)
    await this.store.put(`${this.prefix}${STORYBOARD_FILE}`, Buffer.from(text), { contentType: CONTENT_TYPES.storyboard })
  }
}
