/** The journal the dashboard shows, kept live: fetched from every world's journal, then followed through the event stream, refetched whenever the stream reopens. */
import { useEffect, useState } from 'preact/hooks';
import { adminJson, AdminRefusal } from './admin-fetch.ts';
import { followEvents, type StreamEvent, type StreamState } from './event-stream.ts';
import { type Arrival, type Exchange, loadedRows, MAX_ROWS, type Row, withArrived } from './journal-rows.ts';

/**
 * The journal as the page holds it: its rows (newest first), how the live stream is doing, and the
 * refusal that stopped it (a wrong token).
 *
 * @example
 * const { rows, state } = useJournal(signOut, noteWorld);
 */
export interface LiveJournal {
  readonly rows: readonly Row[];
  readonly state: StreamState | 'loading';
  /** Fetches every journal anew (after a reset, which empties one). */
  readonly reload: () => void;
}

/** Every world's journal: the main world's and each open sandbox's newest {@link MAX_ROWS}. */
async function fetchJournals(): Promise<{ sandbox: string | null; exchanges: Exchange[] }[]> {
  const sandboxes = await adminJson<{ id: string }[]>('sandboxes');
  const main = adminJson<Exchange[]>(`requests?limit=${MAX_ROWS}`).then((exchanges) => ({ sandbox: null, exchanges }));
  const ofSandboxes = sandboxes.map(({ id }) =>
    adminJson<Exchange[]>(`sandboxes/${encodeURIComponent(id)}/requests?limit=${MAX_ROWS}`).then(
      (exchanges) => ({ sandbox: id, exchanges }),
      // A sandbox deleted since the list was read has no journal to show.
      (refusal: unknown) => {
        if (refusal instanceof AdminRefusal && refusal.status === 404) return { sandbox: id, exchanges: [] };
        throw refusal;
      },
    ),
  );
  return Promise.all([main, ...ofSandboxes]);
}

/** An `exchange` event's data, or undefined for data that is not one. */
function arrivalOf({ data }: StreamEvent): Arrival | undefined {
  try {
    const parsed = JSON.parse(data) as Arrival;
    return typeof parsed.exchange === 'object' && parsed.exchange !== null ? { sandbox: parsed.sandbox ?? null, exchange: parsed.exchange } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The live journal, for as long as the component using it lives. `onRefused` hears a refusal of the
 * token (the page signs out); `onArrived` hears each world a new exchange came from (its sandbox's
 * counts changed).
 *
 * @example
 * const journal = useJournal((refusal) => signOut(refusal.message), (sandbox) => sandbox && refreshSandboxes());
 */
export function useJournal(onRefused: (refusal: AdminRefusal) => void, onArrived: (sandbox: string | null) => void): LiveJournal {
  const [rows, setRows] = useState<readonly Row[]>([]);
  const [state, setState] = useState<LiveJournal['state']>('loading');
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    // Exchanges streamed while the journals are fetched wait here, the newest MAX_ROWS of them.
    let waiting: Arrival[] | undefined;
    let loads = 0;
    let streaming: StreamState = 'connecting';

    async function load() {
      const load = ++loads;
      waiting = [];
      setState('loading');
      try {
        const journals = await fetchJournals();
        if (signal.aborted || load !== loads) return;
        setRows(loadedRows(journals, waiting));
        waiting = undefined;
        setState(streaming);
      } catch (failure) {
        if (signal.aborted || !(failure instanceof AdminRefusal)) return;
        if (failure.status === 401 || failure.status === 429) onRefused(failure);
      }
    }

    function onEvent(event: StreamEvent) {
      if (event.event !== 'exchange') return;
      const arrival = arrivalOf(event);
      if (!arrival) return;
      onArrived(arrival.sandbox);
      if (waiting) waiting = [...waiting.slice(1 - MAX_ROWS), arrival];
      else setRows((shown) => withArrived(shown, [arrival]));
    }

    void followEvents('requests/events', signal, {
      onOpen: () => void load(),
      onEvent,
      onState(streamState, refusal) {
        if (refusal) return onRefused(refusal);
        streaming = streamState;
        // Without the stream (a proxy that buffers it, a server without it) the journals are still shown, once.
        if (streamState === 'retrying' && loads === 0) void load();
        // 'live' is said once the journals are fetched as well.
        else if (streamState !== 'live' && !waiting) setState(streamState);
      },
    });
    return () => controller.abort();
    // The callbacks are the page's, made once; a new generation is a reload.
  }, [generation]);

  return { rows, state, reload: () => setGeneration((n) => n + 1) };
}
