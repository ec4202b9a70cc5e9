/**
 * The reference materialised view of the Clusters stream: live stories with their members and
 * outlets. Events may arrive in any order (shards, retries, replays): each item's state is a
 * commutative merge of everything seen for it, so any order of the same events gives the same view.
 *
 * - summary: the image with the highest `revision` wins (every write of a summary bumps it);
 * - member, outlet: a REMOVE is final (storytrail only deletes them from retired clusters, which
 *   never come back); otherwise a member's newest image wins by stream sequence number (DynamoDB
 *   orders the changes of one item), an outlet's by earliest carried_at (it only moves earlier);
 * - an expiry (DynamoDB's TTL took the item out of the hot table once the archive held it: *_expired)
 *   is not a removal: the item leaves the view, but an image written after it (a later sequence, the
 *   item written again) brings it back. An expired member or outlet still counts in its story (the
 *   summary's counts are the whole story's), and a story whose members and outlets all expired stays
 *   live with its summary. A summary that expires leaves `stories()`, but `resolve` still follows its
 *   `merged_into`;
 * - a story is live while its summary has no `merged_into`; `resolve` follows merge chains
 *   (A→B, then B→C: A resolves to C).
 *
 * Also builds the same view from a table scan (`fromItems`), so a consumer can start from a scan and
 * keep up from the stream.
 */
import type { ClusterMember, ClusterOutlet, ClusterRecord, ClusterSummary } from "../records";
import type { ClusterStreamEvent } from "./decode-stream-record";

export interface Story {
  readonly summary: ClusterSummary;
  /** By article_id. */
  readonly members: readonly ClusterMember[];
  /** By source_id. */
  readonly outlets: readonly ClusterOutlet[];
}

interface ItemState<T> {
  removed: boolean;
  image: T | null;
  /** The newest stream sequence of any image seen (a member's image is the one at it). */
  sequence: string | null;
  /** The newest expiry seen: the item is out of the view unless an image is newer than it. */
  expired: { sequence: string | null } | null;
}

function liveImage<T>(st: ItemState<T> | undefined): T | null {
  if (!st || st.removed || !st.image) return null;
  return st.expired && !newerSequence(st.sequence, st.expired.sequence) ? null : st.image;
}

/** Stream sequence numbers are decimal strings of any length; null (unknown) counts as oldest. */
function newerSequence(a: string | null, b: string | null): boolean {
  if (a === null) return false;
  if (b === null) return true;
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return BigInt(a) > BigInt(b);
  return a > b;
}

const byString =
  <T>(key: (x: T) => string) =>
  (x: T, y: T) =>
    key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0;

/** Merge chains longer than this are a broken table (a merge chain grows by one per merge). */
const MAX_CHAIN = 10_000;

export class StoryView {
  private readonly summaries = new Map<string, ItemState<ClusterSummary>>();
  /** Per cluster id, per article id. */
  private readonly members = new Map<string, Map<string, ItemState<ClusterMember>>>();
  /** Per cluster id, per source id. */
  private readonly outlets = new Map<string, Map<string, ItemState<ClusterOutlet>>>();

  /** A view of a table scan's items (records of other types are ignored). */
  static fromItems(items: Iterable<ClusterRecord>): StoryView {
    const view = new StoryView();
    for (const r of items) {
      if (r.record_type === "summary") view.putSummary(r, null);
      else if (r.record_type === "member") view.putMember(r, null);
      else if (r.record_type === "outlet") view.putOutlet(r, null);
    }
    return view;
  }

  apply(event: ClusterStreamEvent): void {
    switch (event.type) {
      case "story_created":
      case "story_grew":
      case "story_updated":
      case "story_merged":
        this.putSummary(event.story, event.sequence);
        return;
      case "story_removed":
        this.state(this.summaries, event.cluster_id).removed = true;
        return;
      case "story_expired":
        this.expire(this.state(this.summaries, event.cluster_id), event.sequence);
        return;
      case "member_added":
      case "member_moved":
      case "member_updated":
      case "article_revised":
        this.putMember(event.member, event.sequence);
        return;
      case "member_removed":
        this.state(this.inner(this.members, event.cluster_id), event.article_id).removed = true;
        return;
      case "member_expired":
        this.expire(this.state(this.inner(this.members, event.cluster_id), event.article_id), event.sequence);
        return;
      case "outlet_added":
      case "outlet_updated":
        this.putOutlet(event.outlet, event.sequence);
        return;
      case "outlet_removed":
        this.state(this.inner(this.outlets, event.cluster_id), event.source_id).removed = true;
        return;
      case "outlet_expired":
        this.expire(this.state(this.inner(this.outlets, event.cluster_id), event.source_id), event.sequence);
        return;
      case "unknown":
        return;
    }
  }

  /** The live story id a (possibly retired) cluster id ends up in; itself when unknown. */
  resolve(cluster_id: string): string {
    let id = cluster_id;
    for (let hops = 0; hops < MAX_CHAIN; hops++) {
      // An expired summary still names what absorbed it.
      const st = this.summaries.get(id);
      const next = st && !st.removed ? st.image?.merged_into : null;
      if (!next) return id;
      id = next;
    }
    throw new Error(`merged_into chain from ${cluster_id} is longer than ${MAX_CHAIN} (a cycle?)`);
  }

  /** The live story that `cluster_id` is or was merged into, or null if it is not (yet) known. */
  story(cluster_id: string): Story | null {
    const id = this.resolve(cluster_id);
    const summary = this.summary(id);
    if (!summary || summary.merged_into) return null;
    return {
      summary,
      members: this.live(this.members.get(id)).sort(byString((m) => m.article_id)),
      outlets: this.live(this.outlets.get(id)).sort(byString((o) => o.source_id)),
    };
  }

  /** Every live story, by cluster id. */
  stories(): Story[] {
    const out: Story[] = [];
    for (const id of [...this.summaries.keys()].sort()) {
      const s = this.summary(id);
      if (s && !s.merged_into) out.push(this.story(id)!);
    }
    return out;
  }

  private summary(id: string): ClusterSummary | null {
    return liveImage(this.summaries.get(id));
  }

  private live<T>(items: Map<string, ItemState<T>> | undefined): T[] {
    const out: T[] = [];
    for (const st of items?.values() ?? []) {
      const image = liveImage(st);
      if (image) out.push(image);
    }
    return out;
  }

  private inner<T>(outer: Map<string, Map<string, ItemState<T>>>, cluster_id: string) {
    let m = outer.get(cluster_id);
    if (!m) {
      m = new Map();
      outer.set(cluster_id, m);
    }
    return m;
  }

  private state<T>(m: Map<string, ItemState<T>>, key: string): ItemState<T> {
    let st = m.get(key);
    if (!st) {
      st = { removed: false, image: null, sequence: null, expired: null };
      m.set(key, st);
    }
    return st;
  }

  private expire<T>(st: ItemState<T>, sequence: string | null): void {
    if (!st.expired || newerSequence(sequence, st.expired.sequence)) st.expired = { sequence };
  }

  /** Keeps the newest sequence of the item's images, which an expiry is compared with. */
  private seen<T>(st: ItemState<T>, sequence: string | null): void {
    if (newerSequence(sequence, st.sequence)) st.sequence = sequence;
  }

  private putSummary(s: ClusterSummary, sequence: string | null): void {
    const st = this.state(this.summaries, s.cluster_id);
    if (!st.image || s.revision > st.image.revision) st.image = s;
    this.seen(st, sequence);
  }

  private putMember(m: ClusterMember, sequence: string | null): void {
    const st = this.state(this.inner(this.members, m.cluster_id), m.article_id);
    if (!st.image || newerSequence(sequence, st.sequence)) {
      st.image = m;
      st.sequence = sequence;
    }
  }

  private putOutlet(o: ClusterOutlet, sequence: string | null): void {
    const st = this.state(this.inner(this.outlets, o.cluster_id), o.source_id);
    if (!st.image || o.carried_at < st.image.carried_at) st.image = o;
    this.seen(st, sequence);
  }
}
