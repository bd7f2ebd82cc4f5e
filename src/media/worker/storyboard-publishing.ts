import { join } from 'node:path'
import { renderStoryboardVtt, type StoryboardPlan } from '../processing/index.ts'
import { CONTENT_TYPES, STORYBOARD_FILE, type MediaStore } from '../store/index.ts'

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

  /** The ladder is done: the last sheet's cues, up to `durationMs`, the media that plays. */
  async finish (durationMs: number): Promise<void> {
    if (this.sheets > 0) await this.putVtt(durationMs)
  }

  private async putVtt (durationMs: number | null): Promise<void> {
    const text = renderStoryboardVtt(this.plan, this.sheets, durationMs)
    await this.store.put(`${this.prefix}${STORYBOARD_FILE}`, Buffer.from(text), { contentType: CONTENT_TYPES.storyboard })
  }
}
