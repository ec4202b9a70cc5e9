import fc from "fast-check";
import { expect, it } from "vitest";
import { EventHeap } from "../../bench/event-heap";

function drain<T>(heap: EventHeap<T>): { time: number; value: T }[] {
  const out: { time: number; value: T }[] = [];
  for (let e = heap.pop(); e !== undefined; e = heap.pop()) out.push(e);
  return out;
}

it("pops events earliest first, and events at the same time in the order they were pushed", () => {
  const heap = new EventHeap<string>();
  heap.push(5, "e");
  heap.push(1, "a");
  heap.push(3, "c1");
  heap.push(3, "c2");
  heap.push(0, "z");
  heap.push(3, "c3");
  expect(heap.size).toBe(6);
  expect(heap.peekTime()).toBe(0);
  expect(drain(heap).map((e) => `${e.time}:${e.value}`)).toEqual([
    "0:z",
    "1:a",
    "3:c1",
    "3:c2",
    "3:c3",
    "5:e",
  ]);
  expect(heap.pop()).toBeUndefined();
  expect(heap.peekTime()).toBeUndefined();
});

it("gives the same order as a stable sort by time, for any pushes interleaved with pops", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.boolean()), { maxLength: 200 }),
      (ops) => {
        const heap = new EventHeap<number>();
        const model: { time: number; value: number }[] = [];
        ops.forEach(([time, popFirst], i) => {
          if (popFirst && model.length > 0) {
            model.sort((a, b) => a.time - b.time || a.value - b.value);
            expect(heap.pop()).toEqual(model.shift());
          }
          heap.push(time, i);
          model.push({ time, value: i });
        });
        model.sort((a, b) => a.time - b.time || a.value - b.value);
        expect(drain(heap)).toEqual(model);
      },
    ),
  );
});
