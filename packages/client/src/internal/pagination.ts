import { ResponseValidationError } from "../errors.js";
import type { Page } from "../models.js";

/** Fetches the page after `cursor` (the first page when `undefined`). */
export type PageFetcher<T> = (cursor: string | undefined) => Promise<Page<T>>;

/**
 * What `transactions.list()` returns: awaiting it gives the first page; `for await` over it
 * walks every item of every page, following `has_more` and the last item's id as cursor.
 * Nothing is fetched until it is awaited or iterated.
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #fetch: PageFetcher<T>;
  readonly #startCursor: string | undefined;
  #first: Promise<Page<T>> | undefined;

  constructor(fetch: PageFetcher<T>, startCursor?: string) {
    this.#fetch = fetch;
    this.#startCursor = startCursor;
  }

  #firstPage(): Promise<Page<T>> {
    this.#first ??= this.#fetch(this.#startCursor);
    return this.#first;
  }

  /** Resolves with the first page. */
  then<R1 = Page<T>, R2 = never>(
    onFulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#firstPage().then(onFulfilled, onRejected);
  }

  /** Every page, in order. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page = await this.#firstPage();
    const seen = new Set<string>();
    for (;;) {
      yield page;
      if (!page.hasMore) return;
      const cursor = page.nextCursor;
      // A server that says has_more but gives no new cursor would loop forever.
      if (cursor === null || seen.has(cursor)) {
        throw new ResponseValidationError(
          "GET /transactions said has_more but its last item gives no new cursor; stopping instead of looping",
          { code: "invalid_response", issues: [{ path: "has_more", message: "no progress" }] },
        );
      }
      seen.add(cursor);
      page = await this.#fetch(cursor);
    }
  }

  /** Every item of every page. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }
}
