/** A JSON document around an array, made a chunk at a time as the client reads it: how the journal (a JSON array, or a HAR) goes out whatever its length. */

/** About how many UTF-16 units each chunk of {@link jsonChunks} holds: a few dozen exchanges. */
const CHUNK_UNITS = 64 * 1024;

const ENCODER = new TextEncoder();

/**
 * `open`, then `items` each as `itemJson` makes it, comma-separated, then `close`, as UTF-8 in
 * chunks of about 64 KiB made as the client reads them: a full journal (16 MiB and more) is never
 * one string, which V8 caps (about 512 M units) and which would double the memory it takes while
 * it is sent. The array given is a snapshot; the items are never changed.
 *
 * @example
 * const stream = jsonChunks('[', exchanges, (exchange) => JSON.stringify(exchange), ']');
 */
export function jsonChunks<T>(open: string, items: readonly T[], itemJson: (item: T) => string, close: string): ReadableStream<Uint8Array> {
  let next = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let text = started ? '' : open;
      started = true;
      while (next < items.length && text.length < CHUNK_UNITS) text += `${next === 0 ? '' : ','}${itemJson(items[next++]!)}`;
      const done = next === items.length;
      controller.enqueue(ENCODER.encode(done ? text + close : text));
      if (done) controller.close();
    },
  });
}
