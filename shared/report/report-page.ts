/**
 * The report as one self-contained HTML page: CSS, SVG and the few lines of script inline, nothing
 * fetched, so it opens from disk, as an e-mail attachment, or offline.
 */
import type { ReportData } from "./report-data";
import type { HeadlineChange } from "./revised-stories";
import { barChart, duration, esc, spreadChart } from "./svg-charts";

const CSS = `
:root{--fg:#1f2937;--muted:#6b7280;--line:#e5e7eb;--accent:#2563eb;--bg:#f8fafc}
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:1100px;margin:0 auto;padding:24px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 6px}
p.lead{color:var(--muted);margin:0 0 16px}
.cards{display:flex;gap:12px;flex-wrap:wrap}.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:12px 16px;min-width:150px}
.card b{display:block;font-size:24px}.card span{color:var(--muted);font-size:13px}
section{background:#fff;border:1px solid var(--line);border-radius:8px;padding:4px 18px 18px;margin-top:18px}
table{border-collapse:collapse;width:100%;font-size:14px}th,td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{color:var(--muted);font-weight:600;font-size:12px;text-transform:uppercase;letter-spacing:.03em}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}td.nowrap{white-space:nowrap}
a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
.pill{display:inline-block;min-width:26px;text-align:center;border-radius:10px;background:#dbeafe;color:#1e40af;font-weight:600;padding:0 6px}
.meter{display:inline-block;width:60px;height:8px;background:var(--line);border-radius:4px;vertical-align:middle;margin-right:6px;overflow:hidden}
.meter i{display:block;height:100%;background:#059669}
.chart text{font:12px system-ui,sans-serif;fill:var(--fg)}.chart .note,.chart .axis{fill:var(--muted)}.chart .grid{stroke:var(--line)}.chart .outlet text{paint-order:stroke;stroke:#fff;stroke-width:4px;stroke-linejoin:round}
ul.changes{margin:4px 0 0;padding-left:18px}.revised{margin-top:6px}
select{font:inherit;padding:4px 8px;max-width:100%}.muted{color:var(--muted)}
`;

const SCRIPT = `
const pick = document.getElementById("story-pick");
pick.addEventListener("change", () => {
  for (const el of document.querySelectorAll(".timeline")) el.hidden = el.id !== pick.value;
});
`;

const pct = (x: number) =>
  `<span class="meter"><i style="width:${Math.round(x * 100)}%"></i></span>${Math.round(x * 100)} %`;
const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace("T", " ")} UTC` : "–");

function topStories(d: ReportData): string {
  const rows = d.top.map(
    (
      s,
      i,
    ) => `<tr><td class="num">${i + 1}</td><td><a href="${esc(s.canonical_url)}">${esc(s.headline ?? "(no headline)")}</a><div class="muted">${esc(s.outlets.map((o) => o.publication).join(", "))}</div></td>
<td class="num"><span class="pill">${s.outlet_count}</span></td><td class="num">${s.article_count}</td><td>${when(s.first_published_at)}</td><td class="num">${duration(s.seconds_to_2_outlets)}</td><td class="num">${duration(s.seconds_to_5_outlets)}</td><td class="num">${s.outlet_count > 1 ? duration(s.spread_seconds) : "–"}</td></tr>`,
  );
  return `<section><h2>Top stories by outlet count</h2>
<table><thead><tr><th class="num">#</th><th>story and outlets</th><th class="num">outlets</th><th class="num">articles</th><th>first published</th><th class="num">to 2 outlets</th><th class="num">to 5 outlets</th><th class="num">spread</th></tr></thead>
<tbody>${rows.join("\n") || `<tr><td colspan="8" class="muted">No stories yet.</td></tr>`}</tbody></table></section>`;
}

function timelines(d: ReportData): string {
  const spread = d.top.filter((s) => s.outlet_count > 1);
  if (spread.length === 0)
    return `<section><h2>How a story spread</h2><p class="muted">No story has been carried by more than one outlet yet.</p><select id="story-pick" hidden></select></section>`;
  const options = spread.map(
    (s, i) => `<option value="t${i}">${esc(s.headline ?? s.story_id)} (${s.outlet_count} outlets)</option>`,
  );
  const charts = spread.map(
    (s, i) => `<div class="timeline" id="t${i}"${i ? " hidden" : ""}>${spreadChart(s)}</div>`,
  );
  return `<section><h2>How a story spread</h2><p class="muted">Outlets carrying the story against time since its first publication.</p>
<p><label>Story: <select id="story-pick">${options.join("")}</select></label></p>${charts.join("\n")}</section>`;
}

function fastest(d: ReportData): string {
  if (d.fastest.length === 0)
    return `<section><h2>Fastest to pick up a story</h2><p class="muted">No pick-ups yet.</p></section>`;
  const chart = barChart(
    d.fastest.map((o) => ({
      label: o.publication,
      value: o.median_delay_seconds,
      note: `${duration(o.median_delay_seconds)} (${o.pickups} ${o.pickups === 1 ? "story" : "stories"})`,
    })),
    { title: "Median delay after the first publication" },
  );
  return `<section><h2>Fastest to pick up a story</h2><p class="muted">Median delay after the story's first publication, over the stories each outlet carried after someone else (wire copy, mostly).</p>${chart}</section>`;
}

function revised(d: ReportData): string {
  if (d.most_revised.length === 0)
    return `<section><h2>Most revised stories</h2><p class="muted">No article has been revised at its URL yet.</p></section>`;
  const change = (c: HeadlineChange) =>
    `<li><span class="muted">${c.number}. ${when(c.collected_at)}:</span> ${esc(c.from ?? "(none)")} → <b>${esc(c.to ?? "(none)")}</b></li>`;
  const rows = d.most_revised.map((s, i) => {
    const articles = s.articles.map(
      (a) =>
        `<div class="revised"><a href="${esc(a.url)}">${esc(a.publication ?? a.url)}</a> <span class="muted">${a.revision_count} ${a.revision_count === 1 ? "revision" : "revisions"}</span>${a.headline_changes.length ? `<ul class="changes">${a.headline_changes.map(change).join("")}</ul>` : ""}</div>`,
    );
    return `<tr><td class="num">${i + 1}</td><td><a href="${esc(s.url)}">${esc(s.headline ?? "(no headline)")}</a>${articles.join("")}</td><td class="num"><span class="pill">${s.revisions}</span></td></tr>`;
  });
  return `<section><h2>Most revised stories</h2><p class="muted">Stories whose articles were revised at the same URL, the most revisions first, with each headline change (old → new).</p>
<table><thead><tr><th class="num">#</th><th>story, articles and headline changes</th><th class="num">revisions</th></tr></thead>
<tbody>${rows.join("\n")}</tbody></table></section>`;
}

function quality(d: ReportData): string {
  const rows = d.quality.map((q) => {
    const failures = Object.entries(q.failures)
      .map(([r, n]) => `${esc(r)} ${n}`)
      .join(", ");
    return `<tr><td>${esc(q.publication)}<div class="muted">${esc(q.source_id)}</div></td><td class="num">${q.urls}</td><td class="num">${q.articles}</td><td class="num">${Math.round(q.median_words)}</td><td class="nowrap">${pct(q.with_date)}</td><td class="nowrap">${pct(q.with_headline)}</td><td class="num">${Math.round(q.paywalled * 100)} %</td><td>${failures || '<span class="muted">none</span>'}</td></tr>`;
  });
  return `<section><h2>Extraction quality per publisher</h2>
<table><thead><tr><th>publisher</th><th class="num">URLs</th><th class="num">articles</th><th class="num">median words</th><th>with a date</th><th>with a headline</th><th class="num">paywalled</th><th>failures</th></tr></thead>
<tbody>${rows.join("\n")}</tbody></table></section>`;
}

export function renderReport(d: ReportData): string {
  const card = (n: number, label: string) => `<div class="card"><b>${n}</b><span>${label}</span></div>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>storytrail report</title><style>${CSS}</style></head>
<body><main>
<h1>storytrail report</h1><p class="lead">Generated ${when(d.generated_at)}.</p>
<div class="cards">${card(d.totals.stories, "stories")}${card(d.totals.multi_outlet, "carried by 2+ outlets")}${card(d.totals.articles, "articles")}${card(d.totals.outlets, "outlets")}</div>
${topStories(d)}
${timelines(d)}
${fastest(d)}
${revised(d)}
${quality(d)}
</main><script>${SCRIPT}</script></body></html>
`;
}
