/**
 * CPU time for the tests' cost guards. Wall time on a shared machine stretches with everyone
 * else's load (a 2-core machine at load 20 runs a test ten times slower), while the CPU time this
 * process spends does not; a guard on it still catches a cost that grew from milliseconds back to
 * seconds. Speed itself is measured by `npm run bench`, not asserted here.
 */

/** Milliseconds of CPU (user + system) this process spent in `work`. */
export function cpuMs(work: () => unknown): number {
  const before = process.cpuUsage();
  work();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1_000;
}

/** Like `cpuMs` for async work; only this process's CPU counts, so keep other work idle meanwhile. */
export async function cpuMsAsync<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const before = process.cpuUsage();
  const value = await work();
  const spent = process.cpuUsage(before);
  return { value, ms: (spent.user + spent.system) / 1_000 };
}
