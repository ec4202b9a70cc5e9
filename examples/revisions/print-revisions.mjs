#!/usr/bin/env node
// Prints the revisions on a Clusters stream, one line each, from `storytrail tail --json` on stdin:
//   npx storytrail tail --json --data-dir DIR | node examples/revisions/print-revisions.mjs
// Plain Node, no dependency: each line is one decoded ClusterStreamEvent (README, "Records for consumers");
// an `article_revised` event carries what changed. Lines of other events are skipped.
import { createInterface } from "node:readline";

const words = (r) => (r.body_changed ? `+${r.words_added}/-${r.words_removed} words` : "same text");

for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
  if (!line.trim()) continue;
  const event = JSON.parse(line);
  if (event.type !== "article_revised") continue;
  const r = event.revision;
  const headline = r.headline_changed
    ? `${JSON.stringify(r.previous_headline)} → ${JSON.stringify(r.headline)}`
    : JSON.stringify(r.headline);
  const notice = r.notice ? `, ${r.notice}: ${JSON.stringify(r.notice_text)}` : "";
  console.log(
    `${r.collected_at} ${event.cluster_id} ${event.member.url} revision ${r.number}: ${headline}, ${words(r)}${notice}`,
  );
}
