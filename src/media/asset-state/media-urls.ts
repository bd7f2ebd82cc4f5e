/**
 * Public media URLs (docs/media.md, "Serving"). They rest on the asset's media token, which never
 * changes, so a replacement keeps them; the master playlist is rewritten on the way out to name the
 * served version's renditions, whose paths (under the random version) never change content.
 */
export function mediaUrls (baseUrl: string, token: string) {
  const root = `${baseUrl}/media/${token}`
  return {
    master: `${root}/master.m3u8`,
    preview: `${root}/preview.jpg`,
    source: `${root}/source`,
    storyboard: `${root}/storyboard.vtt`,
    mp4: `${root}/download.mp4`,
    m4a: `${root}/download.m4a`,
    rendition: (version: string, name: string) => `${root}/${version}/${name}/index.m3u8`
  }
}
