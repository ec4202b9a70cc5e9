/**
 * A staged table reads what it staged, keeps what it read from LMDB until the next commit, and a
 * commit writes the staged values and deletions to the file (read back through a fresh environment).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { open } from "lmdb";
import { describe, expect, it } from "vitest";
import { commitStaged, StagedTable } from "../../../shared/local-store/staged-table";

describe("StagedTable", () => {
  it("reads its staged writes and deletions over what LMDB holds, and writes them at the commit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "storytrail-staged-"));
    const root = open({ path: dir });
    const table = new StagedTable<string, number[]>((r) => r.openDB({ name: "t" }), root);
    table.put("a", [1]);
    table.put("b", [2]);
    commitStaged(root, [table as never]);

    // Read from LMDB (and kept), then overwritten and removed before the next commit.
    expect(table.get("a")).toEqual([1]);
    expect(table.get("b")).toEqual([2]);
    expect(table.get("c")).toBeUndefined();
    table.put("a", [1, 3]);
    table.remove("b");
    table.put("c", [4]);
    expect(table.get("a")).toEqual([1, 3]);
    expect(table.get("b")).toBeUndefined();
    expect(table.get("c")).toEqual([4]);
    // Written to the file at the commit, not before; what was read before it is not served after it.
    const other = open({ path: dir }).openDB<number[], string>({ name: "t" });
    expect(other.get("a")).toEqual([1]);
    expect(table.get("d")).toBeUndefined();
    other.putSync("d", [5]);
    expect(table.get("d")).toBeUndefined();
    commitStaged(root, [table as never]);
    expect(table.get("d")).toEqual([5]);
    expect(table.get("a")).toEqual([1, 3]);
    expect(table.get("b")).toBeUndefined();
    expect([...table.committed()]).toEqual([
      { key: "a", value: [1, 3] },
      { key: "c", value: [4] },
      { key: "d", value: [5] },
    ]);
    await root.close();
    const reopened = open({ path: dir });
    expect(reopened.openDB<number[], string>({ name: "t" }).get("a")).toEqual([1, 3]);
    await reopened.close();
  });
});
