import { describe, expect, it } from "vitest";
import { DIFF_SAMPLE_CHARS, wordDiff } from "../../../shared/revisions/word-diff";

describe("wordDiff", () => {
  it("counts an appended paragraph as added words, with its start as the sample", () => {
    const d = wordDiff(
      "The port reopened.\n\nShips waited.",
      "The port reopened.\n\nShips waited.\n\nUnions welcomed the deal.",
    );
    expect(d).toEqual({ added: 4, removed: 0, addedSample: "Unions welcomed the deal.", removedSample: "" });
  });

  it("sees a changed figure as one word out and one in", () => {
    const d = wordDiff(
      "Police said 12 people were hurt in the crash.",
      "Police said 15 people were hurt in the crash.",
    );
    expect(d).toMatchObject({ added: 1, removed: 1, addedSample: "15", removedSample: "12" });
  });

  it("ignores white space and an unchanged text", () => {
    expect(wordDiff("a  b\nc", "a b c")).toMatchObject({ added: 0, removed: 0 });
  });

  it("bounds its samples on a text replaced whole", () => {
    const long = (seed: string) => Array.from({ length: 5000 }, (_, i) => `${seed}${i}`).join(" ");
    const d = wordDiff(long("old"), long("new"));
    expect(d.added).toBe(5000);
    expect(d.removed).toBe(5000);
    expect(d.addedSample.length).toBeLessThanOrEqual(DIFF_SAMPLE_CHARS);
    expect(d.removedSample.length).toBeLessThanOrEqual(DIFF_SAMPLE_CHARS);
  });
});
