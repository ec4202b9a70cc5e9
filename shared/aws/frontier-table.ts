/** The Frontier table: one item per discovered canonical URL (DynamoDB adapter of `Frontier`). */
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { DEFAULT_FRONTIER_RETENTION_DAYS } from "../config/crawl-settings";
import {
  type ClaimResult,
  type Frontier,
  type FrontierEntry,
  type RecheckMark,
  StaleDeliveryError,
} from "../crawl/ports";
import { articleIdFor } from "../url/canonical-url";
import { isConditionalCheckFailure } from "./conditional-check";
import { setExpression } from "./update-expression";

export interface FrontierTableOptions {
  /** Days an item lives after its last write or sighting (DynamoDB TTL on `expires_at`). */
  readonly retentionDays?: number;
}

export class FrontierTable implements Frontier {
  private readonly retentionSeconds: number;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    options: FrontierTableOptions = {},
  ) {
    this.retentionSeconds = (options.retentionDays ?? DEFAULT_FRONTIER_RETENTION_DAYS) * 86_400;
  }

  /** Epoch seconds (DynamoDB TTL) at which an item written at `now` (the caller's clock) expires. */
  private expiresAt(now: string): number {
    return Math.floor(Date.parse(now) / 1000) + this.retentionSeconds;
  }

  async claim(e: {
    url: string;
    source_id: string;
    run_id: string;
    lastmod: string | null;
    now: string;
  }): Promise<ClaimResult> {
    const url_id = articleIdFor(e.url);
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            url_id,
            url: e.url,
            source_id: e.source_id,
            status: "queued",
            run_id: e.run_id,
            lastmod: e.lastmod,
            first_seen_at: e.now,
            updated_at: e.now,
            attempts: 0,
            expires_at: this.expiresAt(e.now),
          },
          // A retried run re-sends the claims it made but may not have enqueued before it failed.
          ConditionExpression: "attribute_not_exists(url_id) OR (#s = :queued AND run_id = :run)",
          ExpressionAttributeNames: { "#s": "status" },
          ExpressionAttributeValues: { ":queued": "queued", ":run": e.run_id },
          // The item as it stands comes back with the refusal (no read, no charge): a URL listed without
          // a lastmod needs a second write only when its re-check is due or its expiry needs renewing.
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      );
      return "new";
    } catch (err) {
      if (!isConditionalCheckFailure(err)) throw err;
      // The refusal's item is in DynamoDB JSON: the document client does not unmarshall errors.
      const old = (err as { Item?: Record<string, { S?: string }> }).Item;
      const stored = { due: old?.recheck_at?.S, status: old?.status?.S };
      // A lastmod not newer than the stored one (a publication date standing in for it, most often)
      // changes nothing: no second write unless a re-check is due or the item's expiry needs renewing.
      const storedLastmod = old?.lastmod?.S;
      const newer = !!e.lastmod && (storedLastmod === undefined || storedLastmod < e.lastmod);
      if (newer && (await this.claimNewerLastmod(url_id, e)) === "updated") return "updated";
      const result = await this.recheckIfDue(url_id, stored, e);
      if (result === "seen") await this.renewSighted(url_id, err, e.now);
      return result;
    }
  }

  /**
   * The update of a new crawl of the URL (a newer lastmod, a due re-check): queued for this run, its
   * attempts from zero again (fetch gives up after MAX_FETCH_ATTEMPTS), the last delivery's traces gone.
   * `more` adds what the cause sets or removes, and its values.
   */
  private newCrawl(
    e: { run_id: string; now: string },
    more: { set?: string; remove?: string; values: Record<string, unknown> },
  ) {
    const set = ["#s = :queued, run_id = :run, updated_at = :now, attempts = :zero, expires_at = :exp"];
    const remove = ["last_delivery, skipped_delivery, skipped_from, skip_detail, delivery_message"];
    if (more.set) set.unshift(more.set);
    if (more.remove) remove.unshift(more.remove);
    return {
      UpdateExpression: `SET ${set.join(", ")} REMOVE ${remove.join(", ")}`,
      ExpressionAttributeNames: { "#s": "status" },
      ExpressionAttributeValues: {
        ...more.values,
        ":queued": "queued",
        ":run": e.run_id,
        ":now": e.now,
        ":zero": 0,
        ":exp": this.expiresAt(e.now),
      },
    };
  }

  /** The URL listed again with a newer lastmod: a new crawl of it, unless it is queued already. */
  private async claimNewerLastmod(
    url_id: string,
    e: { run_id: string; lastmod: string | null; now: string },
  ): Promise<ClaimResult> {
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { url_id },
          ...this.newCrawl(e, { set: "lastmod = :l", values: { ":l": e.lastmod } }),
          ConditionExpression: "attribute_exists(url_id) AND lastmod < :l AND #s <> :queued",
        }),
      );
      return "updated";
    } catch (err) {
      if (isConditionalCheckFailure(err)) return "seen";
      throw err;
    }
  }

  /**
   * Discovery saw a URL it claimed before. A dateless listing is offered again at every run, and only
   * this item stops a second claim (crawl-settings.ts, DEFAULT_FRONTIER_RETENTION_DAYS): while the URL
   * stays listed its item is kept, renewed once it is past half its window, so a listed URL costs one
   * more write per half window, not one per sighting. An item without expires_at (written before the
   * Frontier expired) gets one.
   */
  private async renewSighted(url_id: string, refusal: unknown, now: string): Promise<void> {
    // The refused write's old item comes back as DynamoDB JSON, whatever client sent it.
    const old = (refusal as { Item?: Record<string, { N?: string } | undefined> }).Item;
    const expires = old?.expires_at?.N === undefined ? null : Number(old.expires_at.N);
    const renewAt = this.expiresAt(now) - this.retentionSeconds / 2;
    if (old === undefined || (expires !== null && expires > renewAt)) return;
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { url_id },
          UpdateExpression: "SET expires_at = :exp",
          // Never shortens a window another write has just extended.
          ConditionExpression:
            "attribute_exists(url_id) AND (attribute_not_exists(expires_at) OR expires_at < :exp)",
          ExpressionAttributeValues: { ":exp": this.expiresAt(now) },
        }),
      );
    } catch (err) {
      if (!isConditionalCheckFailure(err)) throw err;
    }
  }

  /** Re-sends a URL listed without a lastmod once its re-check is due (recheck-schedule.ts). The
   * re-check is taken off the item: the fetch sets the next one, and a failed fetch ends them. */
  private async recheckIfDue(
    url_id: string,
    old: { due: string | undefined; status: string | undefined },
    e: { run_id: string; now: string },
  ): Promise<ClaimResult> {
    const { due } = old;
    if (due === undefined || due > e.now || old.status === "queued") return "seen";
    try {
      await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { url_id },
          ...this.newCrawl(e, { remove: "recheck_at", values: { ":due": due } }),
          // Two runs listing it at once: the first takes the re-check away from the second.
          ConditionExpression: "recheck_at = :due AND #s <> :queued",
        }),
      );
      return "updated";
    } catch (err) {
      if (isConditionalCheckFailure(err)) return "seen";
      throw err;
    }
  }

  async get(url: string): Promise<FrontierEntry | null> {
    const out = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: { url_id: articleIdFor(url) }, ConsistentRead: true }),
    );
    return (out.Item as FrontierEntry | undefined) ?? null;
  }

  async markSkipped(
    url: string,
    s: { delivery: number; message?: string; detail: string; now: string },
  ): Promise<void> {
    const values = { ":d": s.delivery, ":detail": s.detail.slice(0, 1000), ":now": s.now };
    // A run continues only within one message (delivery numbers restart when a message is sent again).
    const message = s.message === undefined ? null : { ":msg": s.message };
    const setMessage = message ? ", delivery_message = :msg" : "";
    const sameMessage = message ? " AND delivery_message = :msg" : "";
    const note = async (expr: string, condition: string, extra: Record<string, number | string> = {}) => {
      try {
        await this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { url_id: articleIdFor(url) },
            // Beside the outcome, never over it: a page retried after a failure keeps its reason and detail.
            UpdateExpression: `SET skipped_delivery = :d, skip_detail = :detail, updated_at = :now${setMessage}${expr}`,
            ConditionExpression: `attribute_exists(url_id)${condition}`,
            ExpressionAttributeValues: { ...values, ...extra },
          }),
        );
        return true;
      } catch (err) {
        if (!isConditionalCheckFailure(err)) throw err;
        return false;
      }
    };
    // A run of skipped deliveries (a page put back again and again) starts at `skipped_from`, so the
    // delivery after it knows which one before it should have recorded an outcome. Most notes start a run:
    // one write; one that continues a run is written again without moving its start.
    const prev = { ":prev": s.delivery - 1, ...message };
    if (await note(", skipped_from = :d", ` AND NOT (skipped_delivery = :prev${sameMessage})`, prev)) return;
    await note("", ` AND skipped_delivery = :prev${sameMessage}`, prev);
  }

  async markFetched(
    url: string,
    r: {
      article_id: string;
      http_status: number;
      etag: string | null;
      last_modified: string | null;
      now: string;
      delivery?: number;
      message?: string;
      recheck?: RecheckMark;
    },
  ): Promise<void> {
    await this.update(url, {
      last_delivery: r.delivery,
      delivery_message: r.message,
      status: "fetched",
      article_id: r.article_id,
      http_status: r.http_status,
      etag: r.etag,
      last_modified: r.last_modified,
      ...r.recheck,
      reason: null,
      detail: null,
      updated_at: r.now,
      expires_at: this.expiresAt(r.now),
    });
  }

  async markFailed(url: string, f: Parameters<Frontier["markFailed"]>[1]): Promise<number> {
    return this.update(url, {
      last_delivery: f.delivery,
      delivery_message: f.message,
      status: "failed",
      reason: f.reason,
      detail: f.detail.slice(0, 1000),
      http_status: f.http_status,
      updated_at: f.now,
      expires_at: this.expiresAt(f.now),
    });
  }

  /**
   * Sets the fields and counts an attempt; returns the attempts now recorded (the write returns them).
   * An outcome stamped with its delivery never overwrites one of a later delivery, nor lands after a
   * later delivery was put back (a standard queue may also deliver a message twice): an invocation
   * abandoned at its timeout that still finishes changes nothing (StaleDeliveryError).
   */
  private async update(url: string, fields: Record<string, unknown>): Promise<number> {
    const expr = setExpression({ ...fields, url }, { add: { attempts: 1 } });
    const delivery = fields.last_delivery;
    // A later delivery that was put back (skipped_delivery) also makes this one stale, except for the
    // killed mark a later delivery writes for an earlier one after its put-backs (fetch-attempt.ts).
    // A delivery marked killed is over: its own late outcome is refused too.
    const killed = fields.reason === "killed";
    // Delivery numbers compare only within one message: another message's deliveries (the URL's message
    // sent again by a redrive or a restored local run, counting from 1) are not later than this one.
    const message = typeof fields.delivery_message === "string" ? fields.delivery_message : null;
    const otherMessage = message
      ? "attribute_not_exists(delivery_message) OR delivery_message <> :msg OR "
      : "";
    const sameMessageRule = killed
      ? "attribute_not_exists(last_delivery) OR last_delivery <= :delivery"
      : "(attribute_not_exists(last_delivery) OR last_delivery < :delivery OR (last_delivery = :delivery AND NOT (#stale_reason = :killed))) AND (attribute_not_exists(skipped_delivery) OR skipped_delivery < :delivery)";
    const stale =
      typeof delivery === "number"
        ? {
            ConditionExpression: `${otherMessage}(${sameMessageRule})`,
            ExpressionAttributeNames: {
              ...expr.ExpressionAttributeNames,
              ...(killed ? {} : { "#stale_reason": "reason" }),
            },
            ExpressionAttributeValues: {
              ...expr.ExpressionAttributeValues,
              ":delivery": delivery,
              ...(message ? { ":msg": message } : {}),
              ...(killed ? {} : { ":killed": "killed" }),
            },
          }
        : {};
    try {
      const out = await this.doc.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { url_id: articleIdFor(url) },
          ...expr,
          ...stale,
          ReturnValues: "UPDATED_NEW",
        }),
      );
      return Number(out.Attributes?.attempts ?? 1);
    } catch (err) {
      if (isConditionalCheckFailure(err) && typeof delivery === "number")
        throw new StaleDeliveryError(url, delivery);
      throw err;
    }
  }
}
