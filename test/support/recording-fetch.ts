/** One HTTP request an SDK client made, and the text of its answer when it was a `tools/call` POST. */
export interface Seen {
  readonly method: string;
  readonly lastEventId: string | null;
  readonly rpc: string | undefined;
  status?: number;
  text?: Promise<string>;
}

/**
 * A fetch for an SDK client's transport that records each request in `seen` (with the full text of each
 * `tools/call` answer), and calls `onResume` when the client comes back with GET and `Last-Event-ID`.
 */
export function recordingFetch(seen: Seen[], onResume: () => void): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : undefined;
    const entry: Seen = { method: init?.method ?? 'GET', lastEventId: headers.get('last-event-id'), rpc: body?.method };
    seen.push(entry);
    if (entry.method === 'GET' && entry.lastEventId !== null) onResume();
    const response = await fetch(input, init);
    entry.status = response.status;
    if (entry.rpc === 'tools/call') entry.text = response.clone().text();
    return response;
  };
}
