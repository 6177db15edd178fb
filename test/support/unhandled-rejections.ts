/**
 * Issue 37: an unhandled rejection anywhere in the library is a test failure. Node would end a server's process
 * on one; here each test fails that leaves one behind, naming it, instead of the run going on unaware.
 */
const unhandled: unknown[] = [];
const remember = (reason: unknown): void => void unhandled.push(reason);

beforeAll(() => void process.on('unhandledRejection', remember));

afterEach(async () => {
  // A rejection is reported once the microtasks of its tick ran: give the last one a turn.
  await new Promise((resolve) => setImmediate(resolve));
  if (unhandled.length === 0) return;
  const [first] = unhandled.splice(0);
  throw new Error(
    `An unhandled rejection happened during this test: ${first instanceof Error ? (first.stack ?? first.message) : String(first)}`,
  );
});

afterAll(() => void process.off('unhandledRejection', remember));
