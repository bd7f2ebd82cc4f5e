/** A list answer as the server sends it: the items and, unless this is the last page, where the next one is. */
export interface PageAnswer<T> {
  items: T[]
  next_page?: string
}

/** Fetches one page by its path (the first page's, or a `next_page`). */
export type PageFetcher<T> = (path: string) => Promise<PageAnswer<T>>

/**
 * One page of a list, for those who page by hand. Iterating a page with `for await` yields its items
 * and then those of every following page.
 * @example
 * let page = await client.labels.list({ limit: 50 }).firstPage()
 * while (page.hasNextPage()) page = await page.getNextPage()
 */
export class Page<T> implements AsyncIterable<T> {
  readonly items: T[]
  /** The relative URL of the next page, or undefined on the last page. */
  readonly nextPage: string | undefined
  readonly #fetch: PageFetcher<T>

  constructor (answer: PageAnswer<T>, fetch: PageFetcher<T>) {
    this.items = answer.items
    this.nextPage = answer.next_page
    this.#fetch = fetch
  }

  hasNextPage (): boolean {
    return this.nextPage !== undefined
  }

  /** The following page; throws on the last page. */
  async getNextPage (): Promise<Page<T>> {
    if (this.nextPage === undefined) throw new RangeError('This is the last page.')
    return new Page(await this.#fetch(this.nextPage), this.#fetch)
  }

  async * [Symbol.asyncIterator] (): AsyncIterator<T> {
    let page: Page<T> = this
    for (;;) {
      yield * page.items
      if (!page.hasNextPage()) return
      page = await page.getNextPage()
    }
  }
}

/**
 * A list that has not been fetched yet. `for await` walks every item of every page, following
 * `next_page` (each page signed on its own); `firstPage()` and `pages()` give the pages themselves.
 * @example
 * for await (const label of client.labels.list()) console.log(label.full_name)
 */
export class PagedList<T> implements AsyncIterable<T> {
  readonly #path: string
  readonly #fetch: PageFetcher<T>

  constructor (path: string, fetch: PageFetcher<T>) {
    this.#path = path
    this.#fetch = fetch
  }

  async firstPage (): Promise<Page<T>> {
    return new Page(await this.#fetch(this.#path), this.#fetch)
  }

  /** Every page in turn. */
  async * pages (): AsyncGenerator<Page<T>> {
    let page = await this.firstPage()
    yield page
    while (page.hasNextPage()) {
      page = await page.getNextPage()
      yield page
    }
  }

  async * [Symbol.asyncIterator] (): AsyncIterator<T> {
    for await (const page of this.pages()) yield * page.items
  }

  /** Every item of every page, in one array. Mind the size of what you ask for. */
  async toArray (): Promise<T[]> {
    const all: T[] = []
    for await (const item of this) all.push(item)
    return all
  }
}
