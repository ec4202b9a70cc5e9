/**
 * The configured sources as data: the Sources table holds each source's config (`storytrail sources
 * push` writes it), the dispatcher reads it. The port the domain needs and the diff a push applies.
 */
import type { Source } from "./sources";

export interface SourceCatalog {
  /** Every configured source (an item with state but no config, e.g. from before sources were data, is none). */
  list(): Promise<Source[]>;
  /** Writes these sources' config, leaving what discovery and the quality λ keep on the item. */
  put(sources: readonly Source[], at: Date): Promise<void>;
  /** Deletes these sources with their state: nothing crawls or judges them any more. */
  remove(ids: readonly string[]): Promise<void>;
}

export interface SourcesDiff {
  readonly added: readonly Source[];
  readonly changed: readonly { readonly before: Source; readonly after: Source }[];
  readonly removed: readonly Source[];
  readonly unchanged: number;
}

/** A source's config as a string that does not depend on key order. */
function canonical(source: Source): string {
  return JSON.stringify(source, Object.keys(source).sort());
}

/** What replacing `current` with `next` (the whole new set) adds, changes and removes, in `next`'s order. */
export function diffSources(current: readonly Source[], next: readonly Source[]): SourcesDiff {
  const before = new Map(current.map((s) => [s.id, s]));
  const nextIds = new Set(next.map((s) => s.id));
  const added: Source[] = [];
  const changed: { before: Source; after: Source }[] = [];
  let unchanged = 0;
  for (const source of next) {
    const old = before.get(source.id);
    if (!old) added.push(source);
    else if (canonical(old) !== canonical(source)) changed.push({ before: old, after: source });
    else unchanged++;
  }
  const removed = current.filter((s) => !nextIds.has(s.id));
  return { added, changed, removed, unchanged };
}

/** Applies a diff: writes the added and changed configs, deletes the removed sources. */
export async function applySourcesDiff(catalog: SourceCatalog, diff: SourcesDiff, at: Date): Promise<void> {
  await catalog.put([...diff.added, ...diff.changed.map((c) => c.after)], at);
  await catalog.remove(diff.removed.map((s) => s.id));
}

/** The fields whose values differ between two configs of one source. */
export function changedFields(before: Source, after: Source): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const get = (s: Source, k: string) => JSON.stringify((s as unknown as Record<string, unknown>)[k]);
  return [...keys].filter((k) => get(before, k) !== get(after, k)).sort();
}
