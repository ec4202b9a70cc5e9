/**
 * `@storytrail/records`: what a consumer of storytrail's data imports. The record schemas and types,
 * the Articles-item decoder (it gunzips the body with node:zlib), the Clusters-stream decoder and the
 * reference materialised view; nothing here has an effect on import, and zod is the only dependency
 * (a peer: the consumer's own zod 4).
 */
export * from "../../../shared/consumer/article-item";
export * from "../../../shared/consumer/decode-stream-record";
export * from "../../../shared/consumer/story-view";
export * from "../../../shared/consumer/stream-record-error";
export * from "../../../shared/consumer/ttl-deletion";
export * from "../../../shared/records";
