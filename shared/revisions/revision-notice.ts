/**
 * Whether a revision brought a correction or update notice: a line of the revised body that opens with
 * "Correction:", "Update:", "Updated:" or "Editor's note:" and was not in the earlier body, or else the
 * publisher's correction markup in the page (schema.org's `correction` property in JSON-LD or
 * microdata, or an element whose class or id names a correction).
 */
import { cutChars } from "../extract/field-caps";
import type { RevisionNotice } from "../records";

/** Characters of the notice's line kept with the revision. */
const NOTICE_CHARS = 200;

const NOTICE_LINE = /^[\s*_>#-]*(correction|corrected|update|updated|editor['’]s note)\b\s*[:.—–-]/iu;

/** Correction markup: JSON-LD `"correction":`, microdata `itemprop="correction"`, class/id "correction". */
const CORRECTION_MARKUP =
  /"correction"\s*:|itemprop\s*=\s*["']?correction|(?:class|id)\s*=\s*["'][^"']*\bcorrection/iu;

/** Bytes of the page searched for the markup: a notice sits in the article, not past 2 MB of HTML. */
const MARKUP_SCAN_CHARS = 2_000_000;

interface FoundNotice {
  readonly notice: RevisionNotice;
  readonly text: string | null;
}

export function revisionNotice(before: string, after: string, html: () => string): FoundNotice | null {
  const earlier = new Set(before.split("\n").map((l) => l.trim()));
  for (const raw of after.split("\n")) {
    const line = raw.trim();
    const m = NOTICE_LINE.exec(line);
    if (!m || earlier.has(line)) continue;
    const word = m[1]!.toLowerCase();
    const notice: RevisionNotice = word.startsWith("correct") ? "correction" : "update";
    return { notice, text: cutChars(line, NOTICE_CHARS) };
  }
  return CORRECTION_MARKUP.test(html().slice(0, MARKUP_SCAN_CHARS))
    ? { notice: "correction", text: null }
    : null;
}
