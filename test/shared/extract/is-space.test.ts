import { describe, expect, it } from "vitest";
import { isSpace } from "../../../shared/extract/is-space";

describe("isSpace", () => {
  it("agrees with JavaScript's \\s on every UTF-16 code unit", () => {
    const disagree: number[] = [];
    for (let c = 0; c <= 0xffff; c++) if (isSpace(c) !== /\s/.test(String.fromCharCode(c))) disagree.push(c);
    expect(disagree).toEqual([]);
  });
});
