/**
 * A binary min-heap of timed events for the scale simulation (bench/scale-sim.ts): `pop` gives the
 * earliest; events at the same time come out in the order they were pushed, so a run is deterministic.
 */
interface Entry<T> {
  readonly time: number;
  readonly seq: number;
  readonly value: T;
}

export class EventHeap<T> {
  private readonly items: Entry<T>[] = [];
  private pushed = 0;

  get size(): number {
    return this.items.length;
  }

  /** The earliest event's time, or undefined when the heap is empty. */
  peekTime(): number | undefined {
    return this.items[0]?.time;
  }

  push(time: number, value: T): void {
    const items = this.items;
    items.push({ time, seq: this.pushed++, value });
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  /** The earliest event (and its time), or undefined when the heap is empty. */
  pop(): { time: number; value: T } | undefined {
    const items = this.items;
    const top = items[0];
    if (top === undefined) return undefined;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let least = i;
        if (l < items.length && this.before(items[l]!, items[least]!)) least = l;
        if (r < items.length && this.before(items[r]!, items[least]!)) least = r;
        if (least === i) break;
        [items[i], items[least]] = [items[least]!, items[i]!];
        i = least;
      }
    }
    return { time: top.time, value: top.value };
  }

  private before(a: Entry<T>, b: Entry<T>): boolean {
    return a.time < b.time || (a.time === b.time && a.seq < b.seq);
  }
}
