/**
 * `work`'s value, or `undefined` when `deadline` (a `performance.now()` time) passes first. The
 * work is not stopped, only no longer waited for; the timer is cleared either way, so nothing
 * keeps the process alive after the race.
 */
export async function beforeDeadline<T>(
  work: Promise<T>,
  deadline: number,
): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - performance.now()));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
