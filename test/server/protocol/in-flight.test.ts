import { InFlight } from '../../../src/server/protocol/in-flight';
import { ContextInit, UNDECLARED, type ContextChannel } from '../../../src/server/protocol/context-init';
import { LazyAbort } from '../../../src/server/protocol/lazy-abort';
import { RequestContext } from '../../../src/invoke/request/request-context';

/**
 * Issue 27: the per-request structures of the hot path, made to allocate less. `InFlight` must answer as the `Map`
 * of requests in progress it replaces; `ContextInit` as the context literal with closures it replaces.
 */
describe('InFlight', () => {
  it('keeps one value per id, the later one replacing the earlier, across its slot and its map', () => {
    const inFlight = new InFlight<string>();
    inFlight.set(1, 'a');
    inFlight.set('1', 'b');
    inFlight.set(2, 'c');
    inFlight.set(1, 'a2');
    inFlight.set('1', 'b2');
    expect([inFlight.size, inFlight.get(1), inFlight.get('1'), inFlight.get(2), inFlight.get(3), inFlight.has(2), inFlight.has(3)]).toEqual(
      [3, 'a2', 'b2', 'c', undefined, true, false],
    );
  });

  it('forgets an id only for the value it holds, and never holds an id twice', () => {
    const inFlight = new InFlight<string>();
    inFlight.set(1, 'a');
    inFlight.set(2, 'b');
    inFlight.settle(1, 'other');
    inFlight.settle(2, 'other');
    expect([inFlight.size, inFlight.get(1), inFlight.get(2)]).toEqual([2, 'a', 'b']);
    inFlight.settle(1, 'a');
    // The slot is free while 2 is in the map: setting 2 again replaces it there rather than adding a second entry.
    inFlight.set(2, 'b2');
    expect([inFlight.size, inFlight.get(1), inFlight.get(2)]).toEqual([1, undefined, 'b2']);
    inFlight.settle(2, 'b2');
    expect([inFlight.size, inFlight.has(2)]).toEqual([0, false]);
  });

  it('gives every value once when all are taken, and holds none after', () => {
    const inFlight = new InFlight<string>();
    inFlight.set(1, 'a');
    inFlight.set(2, 'b');
    inFlight.set(3, 'c');
    expect(inFlight.takeAll()).toEqual(['a', 'b', 'c']);
    expect([inFlight.size, inFlight.get(1), inFlight.takeAll()]).toEqual([0, undefined, []]);
  });
});

describe('ContextInit', () => {
  function channelLog(): { channel: ContextChannel; sent: unknown[] } {
    const sent: unknown[] = [];
    const channel: ContextChannel = {
      notify: (notification) => {
        sent.push(notification);
        return Promise.resolve();
      },
      log: (level, data, logger) => {
        sent.push({ level, data, logger });
        return Promise.resolve();
      },
    };
    return { channel, sent };
  }

  it("reports progress only with the request's progress token, and logs through the request's channel", async () => {
    const { channel, sent } = channelLog();
    const caps = { roots: {} };
    const withToken = new RequestContext(
      new ContextInit(
        new LazyAbort(),
        channel,
        7,
        's',
        '2025-11-25',
        { name: 'c', version: '1' },
        caps,
        { progressToken: 'p' },
        UNDECLARED,
        undefined,
        undefined,
        undefined,
      ),
    );
    const withoutToken = new RequestContext(
      new ContextInit(
        new LazyAbort(),
        channel,
        8,
        undefined,
        '2025-11-25',
        undefined,
        caps,
        undefined,
        UNDECLARED,
        undefined,
        undefined,
        undefined,
      ),
    );
    await withToken.reportProgress(1, 2, 'half');
    await withoutToken.reportProgress(1);
    await withoutToken.log('info', 'hello', 'l');
    expect(JSON.stringify(sent)).toBe(
      '[{"method":"notifications/progress","params":{"progressToken":"p","progress":1,"total":2,"message":"half"}},{"level":"info","data":"hello","logger":"l"}]',
    );
    expect([
      withToken.requestId,
      withToken.sessionId,
      withToken.protocolVersion,
      withToken.clientInfo,
      withToken.clientCapabilities,
    ]).toEqual([7, 's', '2025-11-25', { name: 'c', version: '1' }, caps]);
    await expect(withToken.createMessage({ messages: [], maxTokens: 1 })).rejects.toThrow(
      'Sampling is not available for this request: the client did not declare the capability.',
    );
  });

  it('makes the signal only when the tool reads it, aborted as the request was', () => {
    const abort = new LazyAbort();
    let made = 0;
    const source = {
      get signal() {
        made++;
        return abort.signal;
      },
    };
    const context = new RequestContext(
      new ContextInit(
        source,
        channelLog().channel,
        1,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        UNDECLARED,
        undefined,
        undefined,
        undefined,
      ),
    );
    expect(made).toBe(0);
    abort.abort('cancelled');
    expect([context.signal.aborted, context.signal.reason, made]).toEqual([true, 'cancelled', 1]);
  });
});
