const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it holds, at most `attempts` times `every` milliseconds apart, and fails naming what
 * it waited for otherwise: an end-to-end test waits for a real process, never forever.
 */
export async function waitUntil(
  what: string,
  probe: () => boolean | Promise<boolean>,
  { attempts = 400, every = 25 }: { readonly attempts?: number; readonly every?: number } = {},
): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (await probe()) return;
    await sleep(every);
  }
  throw new Error(`Gave up waiting for ${what} after ${attempts} attempts ${every} ms apart.`);
}
