/** Inline SVG charts for the report: drawn here, so the page needs no script or network to show them. */
import type { StoryRow } from "../export/dataset";

export function esc(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A duration the way an editor says it: "45 s", "12 min", "3 h 05 min". */
export function duration(seconds: number | null): string {
  if (seconds === null) return "–";
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const min = Math.round(seconds / 60);
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, "0")} min`;
}

const PALETTE = [
  "#2563eb",
  "#dc2626",
  "#059669",
  "#d97706",
  "#7c3aed",
  "#0891b2",
  "#db2777",
  "#65a30d",
  "#9333ea",
  "#ea580c",
];

export interface Bar {
  readonly label: string;
  readonly value: number;
  /** Text at the bar's end (defaults to the value). */
  readonly note?: string;
}

/** Horizontal bars, longest value spanning the plot. */
export function barChart(bars: readonly Bar[], opts: { title: string; width?: number }): string {
  const width = opts.width ?? 720;
  const labelW = 190;
  const noteW = 170;
  const rowH = 26;
  const plotW = width - labelW - noteW;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const height = bars.length * rowH + 10;
  const rows = bars.map((b, i) => {
    const y = 5 + i * rowH;
    const w = Math.max(2, (b.value / max) * plotW);
    return `<g class="bar"><text x="${labelW - 8}" y="${y + 17}" text-anchor="end">${esc(b.label)}</text><rect x="${labelW}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowH - 8}" rx="3" fill="${PALETTE[i % PALETTE.length]}"/><text x="${(labelW + w + 6).toFixed(1)}" y="${y + 17}" class="note">${esc(b.note ?? String(b.value))}</text></g>`;
  });
  return `<svg class="chart" role="img" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><title>${esc(opts.title)}</title>${rows.join("")}</svg>`;
}

/** Nice axis steps for a span of hours: 1, 2, 3, 6, 12 or 24 h between ticks. */
function hourStep(hours: number): number {
  return [1, 2, 3, 6, 12, 24].find((s) => hours / s <= 8) ?? 48;
}

/**
 * A story's spread: outlets carrying it (y) against hours since its first publication (x), as a
 * step line with one labelled dot per outlet.
 */
export function spreadChart(story: StoryRow, opts: { width?: number } = {}): string {
  const width = opts.width ?? 860;
  const points = story.outlets.filter((o) => o.delay_seconds !== null);
  const n = Math.max(1, points.length);
  const rowH = 24;
  const left = 50;
  const right = 200;
  const top = 16;
  const plotH = n * rowH;
  const height = top + plotH + 40;
  const plotW = width - left - right;
  const maxH = Math.max(1, ...points.map((o) => (o.delay_seconds ?? 0) / 3600));
  const step = hourStep(maxH);
  const spanH = Math.ceil(maxH / step) * step;
  const x = (sec: number) => left + (sec / 3600 / spanH) * plotW;
  const y = (count: number) => top + plotH - (count / n) * plotH;
  const parts: string[] = [];
  for (let h = 0; h <= spanH; h += step) {
    parts.push(
      `<line class="grid" x1="${x(h * 3600).toFixed(1)}" x2="${x(h * 3600).toFixed(1)}" y1="${top}" y2="${top + plotH}"/><text class="axis" x="${x(h * 3600).toFixed(1)}" y="${top + plotH + 16}" text-anchor="middle">+${h} h</text>`,
    );
  }
  for (let c = 0; c <= n; c += Math.max(1, Math.ceil(n / 5))) {
    parts.push(`<text class="axis" x="${left - 8}" y="${y(c) + 4}" text-anchor="end">${c}</text>`);
  }
  let path = `M ${x(0).toFixed(1)} ${y(0).toFixed(1)}`;
  points.forEach((o, i) => {
    const px = x(o.delay_seconds ?? 0);
    path += ` H ${px.toFixed(1)} V ${y(i + 1).toFixed(1)}`;
  });
  path += ` H ${x(spanH * 3600).toFixed(1)}`;
  parts.push(`<path class="step" d="${path}" fill="none" stroke="#2563eb" stroke-width="2.5"/>`);
  points.forEach((o, i) => {
    const px = x(o.delay_seconds ?? 0);
    const py = y(i + 1);
    parts.push(
      `<g class="outlet"><circle cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="5" fill="${PALETTE[i % PALETTE.length]}"><title>${esc(o.publication)}: +${duration(o.delay_seconds)}</title></circle><text x="${(px + 9).toFixed(1)}" y="${(py + 4).toFixed(1)}">${esc(o.publication)} <tspan class="note">+${duration(o.delay_seconds)}</tspan></text></g>`,
    );
  });
  parts.push(
    `<text class="axis" x="${left + plotW / 2}" y="${height - 4}" text-anchor="middle">time since first publication</text><text class="axis" transform="translate(12 ${top + plotH / 2}) rotate(-90)" text-anchor="middle">outlets</text>`,
  );
  return `<svg class="chart spread" role="img" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><title>Spread of: ${esc(story.headline ?? story.story_id)}</title>${parts.join("")}</svg>`;
}
