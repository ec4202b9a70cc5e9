import { marshall } from "@aws-sdk/util-dynamodb";
import { describe, expect, it } from "vitest";
import { unmarshallImage } from "../../../shared/consumer/unmarshall-image";

describe("unmarshallImage", () => {
  it("agrees with the SDK's marshall on every attribute type storytrail could write", () => {
    const item = {
      s: "text",
      n: 3.5,
      neg: -2,
      t: true,
      z: null,
      m: { a: [1, "x", { b: false }], c: {} },
      l: [],
      ss: new Set(["a", "b"]),
      ns: new Set([1, 2]),
    };
    expect(unmarshallImage(marshall(item) as Record<string, unknown>)).toEqual(item);
  });

  it("walks deep nesting without recursion and caps it", () => {
    let deep: Record<string, unknown> = { S: "leaf" };
    for (let i = 0; i < 32; i++) deep = { M: { x: deep } };
    expect(() => unmarshallImage({ top: deep })).not.toThrow();
    expect(() => unmarshallImage({ top: { M: { x: deep } } })).toThrow(/nested deeper than 32/);
  });

  it("names the attribute that is not DynamoDB JSON", () => {
    expect(() => unmarshallImage({ a: { M: { b: { Q: "?" } } } })).toThrow("a.b: unknown attribute type Q");
    expect(() => unmarshallImage({ n: { N: "ten" } })).toThrow("n: N: not a number: ten");
    expect(() => unmarshallImage({ two: { S: "a", N: "1" } })).toThrow(/exactly one type key/);
  });
});
