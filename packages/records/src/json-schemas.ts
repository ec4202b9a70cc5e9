/**
 * JSON Schema (draft 2020-12) of each record, generated from the zod schemas for consumers in other
 * languages. Written as the input side: objects allow properties a later version may add.
 */
import { toJSONSchema } from "zod/v4/core";
import {
  articleSchema,
  clusterMemberSchema,
  clusterOutletSchema,
  clusterRecordSchema,
  clusterSummarySchema,
  RECORD_VERSION,
} from "../../../shared/records";

const SCHEMAS = {
  article: {
    schema: articleSchema,
    // The item itself holds `body` as gzip bytes (binary; base64 in DynamoDB JSON) and
    // `body_encoding: "gzip"` since version 3: JSON Schema has no bytes, so this is the decoded form.
    title:
      'Article (an Articles item with its body decoded: the item stores body gzip-compressed, body_encoding "gzip")',
  },
  "cluster-summary": {
    schema: clusterSummarySchema,
    title: "Story summary (Clusters table, item = summary)",
  },
  "cluster-member": { schema: clusterMemberSchema, title: "Story member (Clusters table, item = member#…)" },
  "cluster-outlet": { schema: clusterOutletSchema, title: "Story outlet (Clusters table, item = outlet#…)" },
  "cluster-record": { schema: clusterRecordSchema, title: "Any Clusters table item, by record_type" },
} as const;

export function recordJsonSchemas(): Record<keyof typeof SCHEMAS, Record<string, unknown>> {
  const out = {} as Record<keyof typeof SCHEMAS, Record<string, unknown>>;
  for (const [name, { schema, title }] of Object.entries(SCHEMAS) as [
    keyof typeof SCHEMAS,
    (typeof SCHEMAS)[keyof typeof SCHEMAS],
  ][]) {
    out[name] = {
      $id: `urn:storytrail:records:v${RECORD_VERSION}:${name}`,
      title: `${title}, record_version ${RECORD_VERSION}`,
      ...toJSONSchema(schema, { io: "input" }),
    };
  }
  return out;
}
