/** Work over a list, a few items at once (the archive's story reads and expiries). */
export async function inBatches<T>(
  items: readonly T[],
  size: number,
  work: (t: T) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}
